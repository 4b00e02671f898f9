import Foundation
import KeyboardLinkDBus
import KeyboardLinkTestSupport
import Testing

@testable import KBlinkAPI

/// `KBlinkError`'s codes and their D-Bus names, both ways, and what docs/dbus-api.md says of them.
@Suite struct KBlinkErrorTests {
    @Test("every code has its own error name and comes back from it", arguments: KBlinkError.Code.allCases)
    func codeAndNameRoundTrip(code: KBlinkError.Code) {
        #expect(KBlinkError.Code(code.errorName) == code)
        let others = KBlinkError.Code.allCases.filter { $0 != code }.map(\.errorName)
        #expect(!others.contains(code.errorName))
    }

    @Test func namesAreTheAPIs() {
        #expect(KBlinkError.Code.notFound.errorName.rawValue == "org.kblink1.Error.NotFound")
        #expect(KBlinkError.Code.invalidArgs.errorName.rawValue == "org.kblink1.Error.InvalidArgs")
        #expect(KBlinkError.Code.conflict.errorName.rawValue == "org.kblink1.Error.Conflict")
        #expect(
            KBlinkError.Code.interactiveAuthorizationRequired.errorName.rawValue
                == "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired")
        let ours = KBlinkError.Code.allCases.filter { $0 != .interactiveAuthorizationRequired }
        #expect(ours.allSatisfy { $0.errorName.rawValue.hasPrefix("org.kblink1.Error.") })
    }

    @Test("a received error with one of the API's names becomes the typed error, message kept")
    func receivedErrorBecomesTyped() {
        let received = DBusError("org.kblink1.Error.NotConnected", "Aula F87 is not connected")
        #expect(KBlinkError(received) == KBlinkError(.notConnected, "Aula F87 is not connected"))
        #expect(KBlinkError(received)?.dbusError == received)
        let typed = KBlinkError.busy("a push runs")
        #expect(KBlinkError(typed.dbusError) == typed)
    }

    @Test(
        "an error of another name stays a DBusError",
        arguments: [
            ErrorName.invalidArgs, .failed, .unknownObject, .accessDenied, .noReply, "org.bluez.Error.Failed",
            "org.kblink1.Error.Unheard",
        ])
    func otherNamesAreNotTyped(name: ErrorName) {
        #expect(KBlinkError.Code(name) == nil)
        #expect(KBlinkError(DBusError(name, "x")) == nil)
    }

    @Test func travelsAndPrintsAsADBusError() {
        let error = KBlinkError.conflict("CAPS on layer 0 changed on both sides")
        let representable: any DBusErrorRepresentable = error
        #expect(representable.dbusError == DBusError("org.kblink1.Error.Conflict", error.message))
        #expect("\(error)" == "\(error.dbusError)")
        #expect(KBlinkError.notFound("x") != KBlinkError.notFound("y"))
        #expect(KBlinkError.notFound("x") != KBlinkError.failed("x"))
    }

    @Test("docs/dbus-api.md's Errors section names every code")
    func documented() throws {
        let text = try String(contentsOfFile: RepositoryFiles.path("docs/dbus-api.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## Errors\n"))
        let rest = text[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        for code in KBlinkError.Code.allCases {
            let name = code.errorName.rawValue
            let short = "`." + (name.split(separator: ".").last.map(String.init) ?? name) + "`"
            #expect(section.contains("`\(name)`") || section.contains(short), "\(name) is not documented")
        }
    }
}
