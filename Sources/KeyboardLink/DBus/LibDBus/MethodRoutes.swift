internal import CBlueZ

#if canImport(Glibc)
    import Glibc
#endif

/// The typed methods an object server exports, looked up by a received call's path, interface and member as libdbus
/// holds them (C strings), so that routing a call builds no Swift string.
///
/// An open-addressing table of the objects that have typed methods, keyed by an FNV-1a hash of the path and confirmed
/// byte by byte; each entry lists the object's interfaces with their method declarations, whose names are compared
/// with the call's in place. The entry shares the path's and the declarations' storage (a thousand keyboards that
/// export the same declarations add one small array each, not a copy of every name). Built from the exported objects
/// when a call first needs it after an export or unexport, and immutable after that.
final class TypedMethodRoutes {
    // A class, immutable after init: looking a call up retains the table once instead of copying its arrays.
    private struct Entry {
        let path: ObjectPath
        let hash: UInt64
        /// The object's interfaces that declare a typed method, in export order.
        let interfaces: [(name: InterfaceName, methods: [DBusMethod])]
    }

    private let entries: [Entry]
    /// Indexes into `entries`, -1 for an empty slot; a power of two long, at most half full.
    private let slots: [Int32]
    private let mask: UInt64

    /// The objects of `objects` that have typed methods.
    init(objects: [ObjectPath: ObjectServer.ExportedObject]) {
        var entries: [Entry] = []
        for (path, object) in objects {
            let interfaces = object.interfaces.compactMap { exported in
                exported.declaration.methods.contains { $0.typedBody != nil }
                    ? (name: exported.declaration.name, methods: exported.declaration.methods) : nil
            }
            guard !interfaces.isEmpty else { continue }
            var text = path.rawValue
            let hash = text.withUTF8 { Self.hash($0) }
            entries.append(Entry(path: path, hash: hash, interfaces: interfaces))
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

    /// The typed method a method call is for, when its path, interface and member name one and its arguments have that
    /// method's signature; nil sends the call down the general path (which also answers every error). A member
    /// declared twice in one interface is the first declaration, as on the general path.
    func body(for call: OpaquePointer) -> TypedMethodBody? {
        guard !entries.isEmpty, let path = dbus_message_get_path(call),
            let interface = dbus_message_get_interface(call),
            let member = dbus_message_get_member(call)
        else { return nil }
        var hash = Self.offsetBasis
        var cursor = path
        while cursor.pointee != 0 {
            hash = (hash ^ UInt64(UInt8(bitPattern: cursor.pointee))) &* Self.prime
            cursor += 1
        }
        var slot = Int(hash & mask)
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if entries[index].hash == hash && Self.matches(entries[index].path.rawValue, path) {
                return Self.body(in: entries[index], interface: interface, member: member, call: call)
            }
            slot = (slot + 1) & Int(mask)
        }
        return nil
    }

    /// The typed method `interface.member` of an object, when the call's signature is the method's.
    private static func body(
        in entry: Entry, interface: UnsafePointer<CChar>, member: UnsafePointer<CChar>, call: OpaquePointer
    ) -> TypedMethodBody? {
        // Plain loops over indices: this runs for every call, and copying each declaration out of its array (or a
        // closure over the arrays) costs more than the comparisons.
        let interfaces = entry.interfaces
        for index in interfaces.indices where matches(interfaces[index].name.rawValue, interface) {
            let methods = interfaces[index].methods
            for method in methods.indices where matches(methods[method].name.rawValue, member) {
                guard let body = methods[method].typedBody else { return nil }
                let signature = dbus_message_get_signature(call)
                let same = body.inputSignature.withUnsafeBufferPointer { expected in
                    signature.map { strcmp($0, expected.baseAddress!) == 0 } ?? (expected.count == 1)
                }
                return same ? body : nil
            }
            return nil
        }
        return nil
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

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }
}
