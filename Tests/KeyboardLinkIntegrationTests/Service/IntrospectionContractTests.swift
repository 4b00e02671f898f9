import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The checked-in introspection XML (`docs/dbus/org.kblink1.xml`) must equal what the running daemon serves.
/// Regenerate it with `KBLINK_UPDATE_INTROSPECTION=1 swift test --filter IntrospectionContractTests` after
/// changing the API on purpose, and describe the change in docs/dbus-api.md.
@Suite("The checked-in org.kblink1 introspection matches the daemon")
struct IntrospectionContractTests {
    static let file = URL(fileURLWithPath: RepositoryFiles.path("docs/dbus/org.kblink1.xml"))

    /// The `<interface>` elements of our own interfaces in a document.
    static func ownInterfaces(_ xml: String) -> [String] {
        var result: [String] = []
        var rest = xml[...]
        while let start = rest.range(of: "  <interface name=\"org.kblink1.") {
            guard let end = rest[start.lowerBound...].range(of: "  </interface>\n") else { break }
            result.append(String(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return result
    }

    @Test("served interfaces equal docs/dbus/org.kblink1.xml")
    func servedEqualsCheckedIn() async throws {
        try await withDaemon { harness in
            let connection = try await harness.bus.connect()
            var served: [String] = []
            for path in [KBlink.managerPath, KBlink.keyboardPath(SimulatedDevice.aulaF87.address)] {
                let reply = try await connection.call(
                    destination: KBlink.service, path: path, interface: .introspectable,
                    member: MemberName("Introspect"))
                served += Self.ownInterfaces(try reply.decode(String.self))
            }
            await connection.close()
            let document =
                "<!-- The org.kblink1 API as kblinkd serves it; checked by IntrospectionContractTests. -->\n<node>\n"
                + served.joined() + "</node>\n"
            if ProcessInfo.processInfo.environment["KBLINK_UPDATE_INTROSPECTION"] == "1" {
                try document.write(to: Self.file, atomically: true, encoding: .utf8)
            }
            let checkedIn = try String(contentsOf: Self.file, encoding: .utf8)
            #expect(served.count >= 2)
            #expect(checkedIn == document, "regenerate with KBLINK_UPDATE_INTROSPECTION=1 and update docs/dbus-api.md")
        }
    }
}
