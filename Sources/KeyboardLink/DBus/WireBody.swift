import Synchronization

/// A received message's body kept in its wire form: typed decoding (``Message/decode(_:)``) reads straight from
/// the bytes, and the ``DBusValue`` form is built only when someone asks for ``Message/body``, once.
@usableFromInline
final class WireBody: @unchecked Sendable {
    // Why @unchecked Sendable is safe: `base`, `count` and the other lets never change after init, the bytes are never
    // written after init and are freed only in deinit, when no reader can hold the object any more (readers keep it
    // alive); `decoded` is a Mutex.

    /// The whole marshalled message (header and body), as libdbus validated it, owned by this object: one
    /// allocation per received message holds both the bytes' ownership and the body's description.
    let base: UnsafeRawPointer
    let count: Int
    private let free: (UnsafeMutableRawPointer) -> Void
    let bodyOffset: Int
    let bigEndian: Bool
    @usableFromInline let signature: Signature
    /// The most dynamic values a reader of this body builds (``DBusWireReader``).
    let valueBudget: Int
    private let decoded = Mutex<[DBusValue]?>(nil)

    /// Takes ownership of `count` bytes at `base`, released with `free` (also when this initialiser fails).
    /// - Throws: ``DBusError`` when the bytes do not start with a message header.
    init(
        taking base: UnsafeMutableRawPointer, count: Int, free: @escaping (UnsafeMutableRawPointer) -> Void,
        signature: Signature, valueBudget: Int = .max
    ) throws {
        let layout: (offset: Int, bigEndian: Bool)
        do {
            layout = try DBusWireReader.bodyOffset(of: UnsafeRawBufferPointer(start: base, count: count))
        } catch {
            free(base)
            throw error
        }
        self.base = UnsafeRawPointer(base)
        self.count = count
        self.free = free
        self.bodyOffset = layout.offset
        self.bigEndian = layout.bigEndian
        self.signature = signature
        self.valueBudget = valueBudget
    }

    deinit { free(UnsafeMutableRawPointer(mutating: base)) }

    /// Runs `body` with the whole marshalled message's bytes.
    func bytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// A reader positioned at the body's first value.
    @usableFromInline
    func reader() -> DBusWireReader {
        DBusWireReader(owner: self, bodyOffset: bodyOffset, bigEndian: bigEndian)
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
