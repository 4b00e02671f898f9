import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `systemd/org.kblink1.policy`: one polkit action per ``PolkitAction``, with the defaults of issue 18, owned by the
/// user kblinkd (polkit answers a non-root mechanism about other processes only for actions it owns).
@Suite("polkit actions org.kblink1.policy")
struct PolkitPolicyFileTests {
    /// An action as the file declares it.
    struct Action: Equatable {
        var defaults: [String: String] = [:]
        var annotations: [String: String] = [:]
    }

    /// Collects actions, their defaults and annotations.
    final class Reader: NSObject, XMLParserDelegate {
        var actions: [String: Action] = [:]
        private var current: String?
        private var annotation: String?
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            text = ""
            if element == "action" {
                current = attributes["id"]
                if let current { actions[current] = Action() }
            } else if element == "annotate" {
                annotation = attributes["key"]
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(
            _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let current else { return }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch element {
            case "allow_any", "allow_inactive", "allow_active": actions[current]?.defaults[element] = value
            case "annotate": if let annotation { actions[current]?.annotations[annotation] = value }
            case "action": self.current = nil
            default: break
            }
        }
    }

    @Test("every action kblinkd checks is declared with its defaults and owned by kblinkd")
    func actions() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryFiles.path("systemd/org.kblink1.policy")))
        let parser = XMLParser(data: data)
        let reader = Reader()
        parser.delegate = reader
        try #require(
            parser.parse(), "the policy file is not well-formed XML: \(String(describing: parser.parserError))")
        #expect(Set(reader.actions.keys) == Set(PolkitAction.allCases.map(\.id) + [BusFacts.fixHostAction]))
        // kblink doctor --fix's helper: an administrator's password each time, for the path make install rewrites.
        let fixHost = try #require(reader.actions[BusFacts.fixHostAction])
        #expect(
            fixHost.defaults == [
                "allow_any": "auth_admin", "allow_inactive": "auth_admin", "allow_active": "auth_admin",
            ])
        #expect(
            fixHost.annotations == ["org.freedesktop.policykit.exec.path": "/usr/local/libexec/kblink/kblink-fix-host"])
        let expected: [PolkitAction: [String: String]] = [
            .pair: ["allow_any": "auth_admin", "allow_inactive": "auth_admin", "allow_active": "yes"],
            .editKeymap: ["allow_any": "auth_admin", "allow_inactive": "auth_admin", "allow_active": "yes"],
            .writeFirmware: [
                "allow_any": "auth_admin", "allow_inactive": "auth_admin", "allow_active": "auth_admin_keep",
            ],
            .readMacros: ["allow_any": "no", "allow_inactive": "no", "allow_active": "yes"],
            .readOthersMacros: [
                "allow_any": "auth_admin_keep", "allow_inactive": "auth_admin_keep",
                "allow_active": "auth_admin_keep",
            ],
        ]
        for action in PolkitAction.allCases {
            let declared = try #require(reader.actions[action.id])
            #expect(declared.defaults == expected[action], "\(action.id)")
            #expect(declared.annotations["org.freedesktop.policykit.owner"] == "unix-user:kblinkd", "\(action.id)")
        }
    }

    @Test("the udev rule asks kblinkd --check-hidraw about the node's report descriptor and grants group kblinkd")
    func udevRule() throws {
        let rule = try String(contentsOfFile: RepositoryFiles.path("systemd/70-kblink-via.rules"), encoding: .utf8)
        let lines = rule.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(lines.first == #"ACTION!="add|change", GOTO="kblink_via_end""#)
        #expect(lines.contains(#"SUBSYSTEM!="hidraw", GOTO="kblink_via_end""#))
        #expect(
            lines.contains(
                #"PROGRAM=="/usr/local/bin/kblinkd --check-hidraw $sys$devpath/device/report_descriptor", GROUP="kblinkd", MODE="0660""#
            ))
        #expect(lines.last == #"LABEL="kblink_via_end""#)
    }

    @Test("kblinkd --check-hidraw exits 0 for a VIA raw HID descriptor, 1 for a keyboard's, 2 without a path")
    func checkHidraw() async throws {
        let directory = NSTemporaryDirectory() + "kblink-check-hidraw-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // QMK's raw HID descriptor and the HID specification's boot keyboard (appendix B.1).
        let raw: [UInt8] = [
            0x06, 0x60, 0xFF, 0x09, 0x61, 0xA1, 0x01, 0x09, 0x62, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08,
            0x81, 0x02, 0x09, 0x63, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08, 0x91, 0x02, 0xC0,
        ]
        let keyboard: [UInt8] = [
            0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x05, 0x07, 0x19, 0xE0, 0x29, 0xE7, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01,
            0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01, 0x95, 0x05, 0x75, 0x01, 0x05, 0x08, 0x19, 0x01,
            0x29, 0x05, 0x91, 0x02, 0x95, 0x01, 0x75, 0x03, 0x91, 0x01, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00, 0x25, 0x65,
            0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xC0,
        ]
        try Data(raw).write(to: URL(fileURLWithPath: directory + "/raw"))
        try Data(keyboard).write(to: URL(fileURLWithPath: directory + "/keyboard"))
        let kblinkd = DaemonHarness.binary("kblinkd")
        let granted = try await runProcess(kblinkd, ["--check-hidraw", directory + "/raw"])
        #expect(granted.status == 0, "\(granted.standardError)")
        #expect(granted.standardError.contains("grant"))
        let refused = try await runProcess(kblinkd, ["--check-hidraw", directory + "/keyboard"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("usage page 0x1, 0x7, 0x8"))
        #expect(try await runProcess(kblinkd, ["--check-hidraw"]).status == 2)
    }
}
