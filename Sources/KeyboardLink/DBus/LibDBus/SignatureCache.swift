import Synchronization

/// Parsed body signatures by their text, shared by every connection: parsing builds a `DBusType` tree, and a
/// program sees the same few signatures again and again.
final class SignatureCache: Sendable {
    /// Enough for every signature a program uses; past it new ones are parsed each time, so the cache stays bounded
    /// whatever peers send.
    static let capacity = 512

    private let entries = Mutex<[String: Signature]>([:])

    /// The signature whose NUL-terminated text libdbus holds at `text` (libdbus validated it).
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the text is not a signature.
    func signature(_ text: UnsafePointer<CChar>) throws -> Signature {
        // Signatures up to 15 bytes are small strings: no allocation for the lookup.
        let key = String(cString: text)
        if let known = entries.withLock({ $0[key] }) { return known }
        let parsed: Signature
        do {
            parsed = try Signature(key)
        } catch {
            throw error.asDBusError
        }
        entries.withLock { table in
            if table.count < Self.capacity { table[key] = parsed }
        }
        return parsed
    }
}
