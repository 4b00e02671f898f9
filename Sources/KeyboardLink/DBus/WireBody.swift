import Synchronization

/// A received message's body kept in its wire form: typed decoding (``Message/decode(_:)``) reads straight from
/// the bytes, and the ``DBusValue`` form is built only when someone asks for ``Message/body``, once.
@usableFromInline
final class WireBody: Sendable {
    /// The whole marshalled message (header and body), as libdbus validated it.
    let bytes: WireBytes
    let bodyOffset: Int
    let bigEndian: Bool
    @usableFromInline let signature: Signature
    private let decoded = Mutex<[DBusValue]?>(nil)

    init(bytes: WireBytes, bodyOffset: Int, bigEndian: Bool, signature: Signature) {
        self.bytes = bytes
        self.bodyOffset = bodyOffset
        self.bigEndian = bigEndian
        self.signature = signature
    }

    /// A reader positioned at the body's first value.
    @usableFromInline
    func reader() -> DBusWireReader {
        DBusWireReader(owner: bytes, bodyOffset: bodyOffset, bigEndian: bigEndian)
    }

    /// Decodes the body to dynamic values.
    /// - Throws: ``DBusError`` when the bytes do not hold values of the signature (libdbus validated them, so this
    ///   would mean a decoder bug).
    func decodeValues() throws -> [DBusValue] {
        var reader = reader()
        var values: [DBusValue] = []
        values.reserveCapacity(signature.types.count)
        for type in signature.types {
            values.append(try reader.value(type))
        }
        return values
    }

    /// The body as dynamic values, decoded on first use and kept. A body that cannot be decoded (see
    /// ``decodeValues()``) reads as empty; ``Message/decode(_:)`` reports the error itself.
    @usableFromInline
    var values: [DBusValue] {
        if let done = decoded.withLock({ $0 }) { return done }
        let values = (try? decodeValues()) ?? []
        decoded.withLock { $0 = values }
        return values
    }
}
