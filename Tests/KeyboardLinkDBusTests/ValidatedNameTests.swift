import Testing

@testable import KeyboardLinkDBus

/// The five name types share their initialisers (``ValidatedName``): text is validated or refused, a literal is a
/// constant checked when it is made.
@Suite("Validated names: one set of initialisers, literals for constants")
struct ValidatedNameTests {
    @Test("each type checks its own rule, through the throwing, failable and literal initialisers")
    func rules() throws {
        let valid: [(any ValidatedName.Type, String)] = [
            (BusName.self, "org.example.Thermostat"), (BusName.self, ":1.42"), (ObjectPath.self, "/org/example"),
            (InterfaceName.self, "org.example.Thermostat1"), (MemberName.self, "SetTarget"),
            (ErrorName.self, "org.example.Error.Refused"),
        ]
        for (type, text) in valid {
            #expect(type.check(text) == nil, "\(type) \(text)")
        }
        let invalid: [(any ValidatedName.Type, String, String)] = [
            (BusName.self, "org", "bus name"), (ObjectPath.self, "org/example", "object path"),
            (InterfaceName.self, "org..example", "interface name"), (MemberName.self, "Set-Target", "member name"),
            (ErrorName.self, "Refused", "error name"),
        ]
        for (type, text, kind) in invalid {
            #expect(type.check(text) != nil, "\(type) \(text)")
            #expect(type.kind == kind)
        }
        let text = "org/example"
        let error = #expect(throws: InvalidNameError.self) { try ObjectPath(text) }
        #expect(error?.kind == "object path")
        #expect(ObjectPath(validating: text) == nil)
        #expect(try ObjectPath(String("/org/example")).rawValue == "/org/example")

        let literal: MemberName = "SetTarget"
        #expect(literal == MemberName(validating: "SetTarget"))
        #expect(literal.description == "SetTarget")
        #expect(BusName.messageBus.rawValue == "org.freedesktop.DBus")
        #expect(ErrorName.invalidArgs.rawValue == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect((["org.b.X", "org.a.X"] as [InterfaceName]).sorted() == ["org.a.X", "org.b.X"])
    }

    @Test("an invalid literal stops the program: it is a programming error, caught at its first run")
    func invalidLiterals() async {
        await #expect(processExitsWith: .failure) { _ = ObjectPath(stringLiteral: "org/example") }
        await #expect(processExitsWith: .failure) { _ = BusName(stringLiteral: "org") }
        await #expect(processExitsWith: .failure) { _ = InterfaceName(stringLiteral: "org..example") }
        await #expect(processExitsWith: .failure) { _ = MemberName(stringLiteral: "Set-Target") }
        await #expect(processExitsWith: .failure) { _ = ErrorName(stringLiteral: "Refused") }
    }
}
