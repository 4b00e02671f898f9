/// Non-variadic overloads of ``Message/decode(_:)`` for one and two arguments.
///
/// The compiler specializes these for the concrete types at the call site. Calls through the variadic form stay
/// generic (parameter packs are not specialized), so every nested dictionary or array then runs its unspecialized
/// code and instantiates metadata as it goes: several times slower on a reply as large as `GetManagedObjects`.
extension Message {
    /// Decodes a one-argument body as `T`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the body has another signature.
    @inlinable
    public func decode<T: DBusRepresentable>(_ type: T.Type) throws -> T {
        if case .wire(let wire) = storage {
            let expected = T.dbusType
            guard wire.signature.types.count == 1, wire.signature.types[0] == expected else {
                throw Self.signatureMismatch(expected: [expected], got: wire.signature)
            }
            var reader = wire.reader()
            return try T(dbusWire: &reader)
        }
        let body = self.body
        guard body.count == 1 else { throw Self.signatureMismatch(expected: [T.dbusType], got: signature) }
        return try T(dbusValue: body[0])
    }

    /// Decodes a two-argument body as `A` and `B`.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the body has another signature.
    @inlinable
    public func decode<A: DBusRepresentable, B: DBusRepresentable>(_ first: A.Type, _ second: B.Type) throws -> (A, B) {
        if case .wire(let wire) = storage {
            let types = wire.signature.types
            guard types.count == 2, types[0] == A.dbusType, types[1] == B.dbusType else {
                throw Self.signatureMismatch(expected: [A.dbusType, B.dbusType], got: wire.signature)
            }
            var reader = wire.reader()
            let a = try A(dbusWire: &reader)
            return (a, try B(dbusWire: &reader))
        }
        let body = self.body
        guard body.count == 2 else {
            throw Self.signatureMismatch(expected: [A.dbusType, B.dbusType], got: signature)
        }
        return (try A(dbusValue: body[0]), try B(dbusValue: body[1]))
    }

    @usableFromInline
    static func signatureMismatch(expected: [DBusType], got: Signature) -> DBusError {
        .invalidArgs("expected arguments '\(Signature(expected).rawValue)', got '\(got.rawValue)'")
    }
}
