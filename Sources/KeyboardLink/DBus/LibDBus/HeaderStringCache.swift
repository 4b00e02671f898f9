#if canImport(Glibc)
    import Glibc
#endif

/// The header names of the last message a connection received, kept so that a stream of messages naming the same
/// object, interface, member and peers builds no new Swift strings: a path or interface name longer than 15 bytes
/// is a heap allocation each time it is decoded, and most messages repeat their predecessor's names.
///
/// Confined to the owning connection's loop thread (every received message is decoded there); not `Sendable`.
final class HeaderStringCache {
    private var path: ObjectPath?
    private var interface: InterfaceName?
    private var member: MemberName?
    private var errorName: ErrorName?
    private var sender: BusName?
    private var destination: BusName?
    private var signature: Signature?

    /// The path libdbus holds at `text` (validated by libdbus when it read the message).
    func path(_ text: UnsafePointer<CChar>) -> ObjectPath {
        if let known = path, Self.same(known.rawValue, text) { return known }
        let made = ObjectPath(unchecked: String(cString: text))
        path = made
        return made
    }

    /// The interface name libdbus holds at `text`.
    func interface(_ text: UnsafePointer<CChar>) -> InterfaceName {
        if let known = interface, Self.same(known.rawValue, text) { return known }
        let made = InterfaceName(unchecked: String(cString: text))
        interface = made
        return made
    }

    /// The member name libdbus holds at `text`.
    func member(_ text: UnsafePointer<CChar>) -> MemberName {
        if let known = member, Self.same(known.rawValue, text) { return known }
        let made = MemberName(unchecked: String(cString: text))
        member = made
        return made
    }

    /// The error name libdbus holds at `text`.
    func errorName(_ text: UnsafePointer<CChar>) -> ErrorName {
        if let known = errorName, Self.same(known.rawValue, text) { return known }
        let made = ErrorName(unchecked: String(cString: text))
        errorName = made
        return made
    }

    /// The sender libdbus holds at `text`.
    func sender(_ text: UnsafePointer<CChar>) -> BusName {
        if let known = sender, Self.same(known.rawValue, text) { return known }
        let made = BusName(unchecked: String(cString: text))
        sender = made
        return made
    }

    /// The destination libdbus holds at `text`.
    func destination(_ text: UnsafePointer<CChar>) -> BusName {
        if let known = destination, Self.same(known.rawValue, text) { return known }
        let made = BusName(unchecked: String(cString: text))
        destination = made
        return made
    }

    /// The body signature libdbus holds at `text`, parsed through the shared cache when it differs from the last one.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the text is not a signature.
    func signature(_ text: UnsafePointer<CChar>) throws -> Signature {
        if let known = signature, Self.same(known.rawValue, text) { return known }
        let parsed = try MessageCodec.signatureCache.signature(text)
        signature = parsed
        return parsed
    }

    /// Whether the NUL-terminated `text` holds exactly the UTF-8 of `string`. `strncmp` stops at the first NUL of
    /// `text`, so a shorter `text` is never read past its end; `string` came from `String(cString:)` and holds no
    /// NUL, so a match means `text`'s first `count` bytes hold none either and `text[count]` is still inside it.
    static func same(_ string: String, _ text: UnsafePointer<CChar>) -> Bool {
        var string = string
        return string.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return text.pointee == 0 }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { strncmp($0, text, bytes.count) }
                == 0 && text[bytes.count] == 0
        }
    }
}
