internal import CBlueZ

#if canImport(Glibc)
    import Glibc
#endif

/// The typed methods an object server exports, looked up by a received call's path, interface and member as libdbus
/// holds them (C strings), so that routing a call builds no Swift string.
///
/// An open-addressing table keyed by an FNV-1a hash of the three names; a hit is confirmed byte by byte. Built from
/// the exported objects when a call first needs it after an export or unexport, and immutable after that.
struct TypedMethodRoutes {
    private struct Route {
        /// `path NUL interface NUL member NUL`.
        let key: [UInt8]
        let hash: UInt64
        let body: TypedMethodBody
    }

    private var routes: [Route] = []
    /// Indexes into `routes`, -1 for an empty slot; a power of two long, at most half full.
    private var slots: [Int32]
    private var mask: UInt64

    /// Whether no typed method is exported (every call takes the general path).
    var isEmpty: Bool { routes.isEmpty }

    /// The routes of every typed method of `objects`. A member declared twice in one interface keeps its first
    /// declaration, as the general path does.
    init(objects: [ObjectPath: ObjectServer.ExportedObject]) {
        var routes: [Route] = []
        for (path, object) in objects {
            for exported in object.interfaces {
                var members = Set<MemberName>()
                for method in exported.declaration.methods where members.insert(method.name).inserted {
                    guard let body = method.typedBody else { continue }
                    var key: [UInt8] = []
                    for name in [path.rawValue, exported.declaration.name.rawValue, method.name.rawValue] {
                        key += name.utf8
                        key.append(0)
                    }
                    routes.append(Route(key: key, hash: Self.hash(key), body: body))
                }
            }
        }
        var capacity = 8
        while capacity < routes.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        let mask = UInt64(capacity - 1)
        for (index, route) in routes.enumerated() {
            var slot = Int(route.hash & mask)
            while slots[slot] >= 0 { slot = (slot + 1) & Int(mask) }
            slots[slot] = Int32(index)
        }
        self.routes = routes
        self.slots = slots
        self.mask = mask
    }

    /// The typed method a method call is for, when its path, interface and member name one and its arguments have that
    /// method's signature; nil sends the call down the general path (which also answers every error).
    func body(for call: OpaquePointer) -> TypedMethodBody? {
        guard !routes.isEmpty, let path = dbus_message_get_path(call), let interface = dbus_message_get_interface(call),
            let member = dbus_message_get_member(call)
        else { return nil }
        // No array of the three names: this runs for every call, and an array is an allocation.
        var hash = Self.offsetBasis
        Self.absorb(path, into: &hash)
        Self.absorb(interface, into: &hash)
        Self.absorb(member, into: &hash)
        var slot = Int(hash & mask)
        while slots[slot] >= 0 {
            let route = routes[Int(slots[slot])]
            if route.hash == hash && Self.matches(route.key, path, interface, member) {
                let signature = dbus_message_get_signature(call)
                let same = route.body.inputSignature.withUnsafeBufferPointer { expected in
                    signature.map { strcmp($0, expected.baseAddress!) == 0 } ?? (expected.count == 1)
                }
                return same ? route.body : nil
            }
            slot = (slot + 1) & Int(mask)
        }
        return nil
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x100_0000_01b3

    /// Hashes a NUL-terminated name and its NUL, as `hash(_:)` hashes it inside a key.
    private static func absorb(_ name: UnsafePointer<CChar>, into hash: inout UInt64) {
        var cursor = name
        while cursor.pointee != 0 {
            hash = (hash ^ UInt64(UInt8(bitPattern: cursor.pointee))) &* prime
            cursor += 1
        }
        hash = hash &* prime
    }

    private static func hash(_ key: [UInt8]) -> UInt64 {
        var hash = offsetBasis
        for byte in key { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    /// Whether `key` is the three NUL-terminated names, in order.
    private static func matches(
        _ key: [UInt8], _ path: UnsafePointer<CChar>, _ interface: UnsafePointer<CChar>,
        _ member: UnsafePointer<CChar>
    ) -> Bool {
        key.withUnsafeBufferPointer { bytes in
            var offset = 0
            return match(path, in: bytes, at: &offset) && match(interface, in: bytes, at: &offset)
                && match(member, in: bytes, at: &offset) && offset == bytes.count
        }
    }

    /// Whether `bytes` holds `name` and its NUL at `offset`; moves `offset` past them.
    private static func match(_ name: UnsafePointer<CChar>, in bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int)
        -> Bool
    {
        let length = strlen(name)
        guard let base = bytes.baseAddress, offset + length < bytes.count, bytes[offset + length] == 0,
            memcmp(base + offset, name, length) == 0
        else { return false }
        offset += length + 1
        return true
    }
}
