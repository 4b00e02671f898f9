internal import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// Every method an object server answers, looked up by a received call's path, interface and member as libdbus holds
/// them (C strings), so that routing a call builds no Swift string. The one way a method call reaches a handler.
///
/// An open-addressing table of the exported objects and object managers, keyed by an FNV-1a hash of the path and
/// confirmed byte by byte; each entry lists the object's interfaces with their method declarations, whose names are
/// compared with the call's in place, and the standard interfaces the path serves (``StandardInterfaces``), declared
/// the same way. The entry shares the path's and the declarations' storage (a thousand keyboards that export the same
/// declarations add one small array each, not a copy of every name). Built from the exported objects when a call first
/// needs it after an export, an unexport or a new object manager, and immutable after that.
final class MethodRoutes {
    // A class, immutable after init: looking a call up retains the table once instead of copying its arrays.
    typealias Interface = (name: InterfaceName, methods: [DBusMethod])

    private struct Entry {
        let path: ObjectPath
        let hash: UInt64
        /// The object's exported interfaces, in export order; empty for an object manager with no object of its own.
        let interfaces: [Interface]
        /// Whether an object is exported here (not only an object manager).
        let isObject: Bool
        /// Whether an object manager serves this path.
        let isManager: Bool
    }

    /// Where a call goes.
    enum Route {
        /// To this method, whose signature the call's arguments have.
        case method(MethodBody)
        /// Nowhere: answered with this error (an unknown object, interface or method, or other arguments). Boxed, so
        /// that a route is one pointer that every call's dispatch moves without a copy of the error's fields.
        indirect case refused(DBusError)
    }

    private let entries: [Entry]
    /// Indexes into `entries`, -1 for an empty slot; a power of two long, at most half full.
    private let slots: [Int32]
    private let mask: UInt64

    init(objects: [ObjectPath: ObjectServer.ExportedObject], managers: Set<ObjectPath>) {
        var entries: [Entry] = []
        for (path, object) in objects {
            let interfaces = object.interfaces.map { (name: $0.declaration.name, methods: $0.declaration.methods) }
            entries.append(
                Entry(
                    path: path, hash: Self.hash(path), interfaces: interfaces, isObject: true,
                    isManager: managers.contains(path)))
        }
        for path in managers where objects[path] == nil {
            entries.append(Entry(path: path, hash: Self.hash(path), interfaces: [], isObject: false, isManager: true))
        }
        var capacity = 8
        while capacity < entries.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        let mask = UInt64(capacity - 1)
        for (index, entry) in entries.enumerated() {
            var slot = Int(entry.hash & mask)
            while slots[slot] >= 0 { slot = (slot + 1) & Int(mask) }
            slots[slot] = Int32(index)
        }
        self.entries = entries
        self.slots = slots
        self.mask = mask
    }

    /// Where a method call goes; nil for a call without a path or member (libdbus refuses to deliver one).
    ///
    /// A call naming an interface finds it among the object's, then among the standard ones. A call naming none finds
    /// the member in the standard interfaces (other than `Peer`), then in the object's in export order, then in
    /// `Peer`. A member declared twice in one interface is its first declaration.
    func route(_ call: OpaquePointer) -> Route? {
        guard let path = dbus_message_get_path(call), let member = dbus_message_get_member(call) else { return nil }
        let index = entryIndex(path)
        if let interface = dbus_message_get_interface(call) {
            if let index, let methods = Self.methods(of: interface, in: entries[index].interfaces) {
                return Self.route(member, in: methods, call: call)
            }
            let standard = Self.standard(managed: index.map { entries[$0].isManager } ?? false)
            if let methods = Self.methods(of: interface, in: standard) ?? Self.methods(of: interface, in: Self.peer) {
                return Self.route(member, in: methods, call: call)
            }
            let pathText = String(cString: path)
            guard index != nil else { return .refused(.unknownObject("no object at \(pathText)")) }
            return .refused(.unknownInterface("no interface \(String(cString: interface)) at \(pathText)"))
        }
        let standard = Self.standard(managed: index.map { entries[$0].isManager } ?? false)
        for interfaces in [standard, index.map { entries[$0].interfaces } ?? [], Self.peer] {
            for interface in interfaces.indices {
                if let method = Self.method(member, in: interfaces[interface].methods) {
                    return Self.route(method, call: call)
                }
            }
        }
        let pathText = String(cString: path)
        guard let index, entries[index].isObject else { return .refused(.unknownObject("no object at \(pathText)")) }
        return .refused(.unknownMethod("no method \(String(cString: member)) on any interface at \(pathText)"))
    }

    /// The entry of the object at `path`, found by the path's hash and confirmed byte by byte.
    private func entryIndex(_ path: UnsafePointer<CChar>) -> Int? {
        guard !entries.isEmpty else { return nil }
        var hash = Self.offsetBasis
        var cursor = path
        while cursor.pointee != 0 {
            hash = (hash ^ UInt64(UInt8(bitPattern: cursor.pointee))) &* Self.prime
            cursor += 1
        }
        var slot = Int(hash & mask)
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if entries[index].hash == hash && Self.matches(entries[index].path.rawValue, path) { return index }
            slot = (slot + 1) & Int(mask)
        }
        return nil
    }

    /// The standard interfaces every path serves, with `ObjectManager` where a manager is (`Peer` apart).
    private static func standard(managed: Bool) -> [Interface] {
        managed ? StandardInterfaces.managerRoutes : StandardInterfaces.routes
    }

    private static let peer: [Interface] = [(StandardInterfaces.peer.name, StandardInterfaces.peer.methods)]

    /// The methods of `interface` among `interfaces`.
    private static func methods(of interface: UnsafePointer<CChar>, in interfaces: [Interface]) -> [DBusMethod]? {
        // Plain loops over indices: this runs for every call, and copying each declaration out of its array (or a
        // closure over the arrays) costs more than the comparisons.
        for index in interfaces.indices where matches(interfaces[index].name.rawValue, interface) {
            return interfaces[index].methods
        }
        return nil
    }

    /// The first of `methods` named `member`.
    private static func method(_ member: UnsafePointer<CChar>, in methods: [DBusMethod]) -> MethodBody? {
        for index in methods.indices where matches(methods[index].name.rawValue, member) {
            return methods[index].body
        }
        return nil
    }

    /// The method `member` of an interface's `methods`, or the error for a member it does not have.
    private static func route(_ member: UnsafePointer<CChar>, in methods: [DBusMethod], call: OpaquePointer) -> Route {
        guard let body = method(member, in: methods) else {
            let interface = dbus_message_get_interface(call).map { String(cString: $0) } ?? "any interface"
            let path = dbus_message_get_path(call).map { String(cString: $0) } ?? "/"
            return .refused(.unknownMethod("no method \(String(cString: member)) on \(interface) at \(path)"))
        }
        return route(body, call: call)
    }

    /// `body`, when the call's arguments have its signature.
    private static func route(_ body: MethodBody, call: OpaquePointer) -> Route {
        let signature = dbus_message_get_signature(call)
        let same = body.inputSignature.withUnsafeBufferPointer { expected in
            signature.map { strcmp($0, expected.baseAddress!) == 0 } ?? (expected.count == 1)
        }
        if same { return .method(body) }
        let expected = String(decoding: body.inputSignature.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let got = signature.map { String(cString: $0) } ?? ""
        return .refused(.invalidArgs("\(body.name) takes arguments '\(expected)', got '\(got)'"))
    }

    /// Whether the NUL-terminated `text` holds exactly `name`'s UTF-8. `strncmp` stops at `text`'s NUL, and `name`
    /// holds none (it is a validated D-Bus name), so a match means `text[count]` is still inside `text`.
    private static func matches(_ name: String, _ text: UnsafePointer<CChar>) -> Bool {
        let compared = name.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress else { return text.pointee == 0 }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { strncmp($0, text, bytes.count) }
                == 0 && text[bytes.count] == 0
        }
        return compared ?? HeaderStringCache.same(name, text)
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x100_0000_01b3

    private static func hash(_ path: ObjectPath) -> UInt64 {
        var text = path.rawValue
        return text.withUTF8 { bytes in
            var hash = offsetBasis
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
            return hash
        }
    }
}
