import Foundation
import KeyboardLinkTestSupport
import Testing

@testable import KBlinkAPI

/// The authorization table of `docs/dbus-api.md` against the contract: every method and writable property of
/// `KBlinkContract` is in exactly one row, with the action the contract gives it.
@Suite("docs/dbus-api.md's authorization table is the contract's")
struct AuthorizationTableTests {
    static let file = URL(fileURLWithPath: RepositoryFiles.path("docs/dbus-api.md"))

    /// `Interface.Member` (or `writing Interface.Property`) -> action id or `anyone`, from the table's rows.
    static func documented(_ text: String) -> [String: String] {
        guard let start = text.range(of: "## Authorization\n") else { return [:] }
        let rest = text[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        var result: [String: String] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2 else { continue }
            let action = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            for item in cells[0].components(separatedBy: ", ") {
                let writing = item.hasPrefix("writing ")
                let name = item.replacingOccurrences(of: "writing ", with: "").trimmingCharacters(
                    in: CharacterSet(charactersIn: "`"))
                guard !name.contains(" ") else { continue }
                result[(writing ? "writing " : "") + name] = action
            }
        }
        return result
    }

    /// The same from the contract.
    static var contract: [String: String] {
        var result: [String: String] = [:]
        let interfaces: [(String, [KBlinkMethodDeclaration], [KBlinkPropertyDeclaration])] = [
            ("Manager", KBlinkContract.Manager.methods, KBlinkContract.Manager.properties),
            ("Keyboard", KBlinkContract.Keyboard.methods, KBlinkContract.Keyboard.properties),
            ("Keymap", KBlinkContract.Keymap.methods, KBlinkContract.Keymap.properties),
        ]
        for (interface, methods, properties) in interfaces {
            for method in methods { result["\(interface).\(method.name.rawValue)"] = method.access.description }
            for property in properties {
                if let action = property.writeAction {
                    result["writing \(interface).\(property.name.rawValue)"] = action.id
                }
            }
        }
        return result
    }

    @Test("every member is documented with its action, and nothing else is")
    func tableMatches() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let documented = Self.documented(text)
        let contract = Self.contract
        let missing = contract.filter { documented[$0.key] != $0.value }.map { "\($0.key): \($0.value)" }.sorted()
        let extra = documented.filter { contract[$0.key] == nil }.map(\.key).sorted()
        #expect(missing == [], "documented differently or not at all")
        #expect(extra == [], "documented but not in the contract")
    }

    @Test("the parser sees a changed row (the comparison can fail)")
    func parserSeesChanges() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let changed = text.replacingOccurrences(
            of: "| `Keymap.GetMacros`, `Keymap.ExportProfile` | `org.kblink1.read-macros` |",
            with: "| `Keymap.GetMacros`, `Keymap.ExportProfile` | anyone |")
        #expect(changed != text)
        #expect(Self.documented(changed)["Keymap.GetMacros"] == "anyone")
        #expect(Self.documented(text)["Keymap.GetMacros"] == "org.kblink1.read-macros")
    }

    @Test("a method that changes something or sends macro text names an action")
    func writesAreGuarded() {
        let open = Set(Self.contract.filter { $0.value == "anyone" }.keys)
        #expect(
            open == [
                "Manager.ListKeyboards", "Manager.HealthSummary", "Manager.ResolveInsets", "Keyboard.RefreshInfo",
                "Keymap.GetBindings",
                "Keymap.Diff", "Keymap.GetKeys", "Manager.ListLayouts", "Manager.GetLayout",
            ])
    }
}
