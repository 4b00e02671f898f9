import Foundation
import KeyboardLinkTestSupport
import Testing

@testable import KBlinkAPI

/// The contract values (`KBlinkContract`) against the checked-in introspection (`docs/dbus/org.kblink1.xml`, which
/// `IntrospectionContractTests` checks against the running daemon): same interfaces, members, argument names,
/// types and directions, property access and change behaviour, in the same order.
@Suite("KBlinkContract is docs/dbus/org.kblink1.xml")
struct ContractTests {
    /// One member as the XML and the contract both describe it, in a form that compares whole.
    struct Member: Equatable, CustomStringConvertible {
        var kind: String
        var name: String
        var details: [String]
        var description: String { "\(kind) \(name)(\(details.joined(separator: ", ")))" }
    }

    static let file = URL(fileURLWithPath: RepositoryFiles.path("docs/dbus/org.kblink1.xml"))

    /// Attribute `name` of an XML start tag.
    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The members of each `org.kblink1.*` interface of the XML document, in document order.
    static func parse(_ xml: String) -> [String: [Member]] {
        var result: [String: [Member]] = [:]
        var interface: String?
        var current: Member?
        func finish() {
            if let member = current, let interface { result[interface, default: []].append(member) }
            current = nil
        }
        for line in xml.split(separator: "\n") {
            let tag = line.drop { $0 == " " }
            if tag.hasPrefix("<interface ") {
                interface = attribute("name", in: tag).flatMap { $0.hasPrefix("org.kblink1.") ? $0 : nil }
            } else if tag.hasPrefix("</interface>") {
                finish()
                interface = nil
            } else if tag.hasPrefix("<method ") || tag.hasPrefix("<signal ") {
                finish()
                current = Member(
                    kind: tag.hasPrefix("<method ") ? "method" : "signal", name: attribute("name", in: tag) ?? "",
                    details: [])
                if tag.hasSuffix("/>") { finish() }
            } else if tag.hasPrefix("<property ") {
                finish()
                let access = attribute("access", in: tag) ?? ""
                current = Member(
                    kind: "property", name: attribute("name", in: tag) ?? "",
                    details: [attribute("type", in: tag) ?? "", access, "true"])
                if tag.hasSuffix("/>") { finish() }
            } else if tag.hasPrefix("<annotation "),
                attribute("name", in: tag) == "org.freedesktop.DBus.Property.EmitsChangedSignal",
                current?.kind == "property"
            {
                current?.details[2] = attribute("value", in: tag) ?? ""
            } else if tag.hasPrefix("<arg "), current != nil {
                let direction = current?.kind == "signal" ? "" : (attribute("direction", in: tag) ?? "in") + " "
                current?.details.append(
                    "\(direction)\(attribute("type", in: tag) ?? "") \(attribute("name", in: tag) ?? "")")
            } else if tag.hasPrefix("</method>") || tag.hasPrefix("</signal>") || tag.hasPrefix("</property>") {
                finish()
            }
        }
        return result
    }

    /// The contract's members of one interface, in the XML's order (methods, then signals, then properties).
    static func contract(
        methods: [KBlinkMethodDeclaration], signals: [KBlinkSignalDeclaration], properties: [KBlinkPropertyDeclaration]
    ) -> [Member] {
        methods.map { method in
            Member(
                kind: "method", name: method.name.rawValue,
                details: method.inputs.map { "in \($0.type.signature) \($0.name)" }
                    + method.outputs.map { "out \($0.type.signature) \($0.name)" })
        }
            + signals.map { signal in
                Member(
                    kind: "signal", name: signal.name.rawValue,
                    details: signal.arguments.map { "\($0.type.signature) \($0.name)" })
            }
            + properties.map { property in
                Member(
                    kind: "property", name: property.name.rawValue,
                    details: [property.type.signature, property.access.rawValue, property.changes.rawValue])
            }
    }

    static func ordered(_ members: [Member]) -> [Member] {
        let rank = ["method": 0, "signal": 1, "property": 2]
        return members.enumerated().sorted {
            ((rank[$0.element.kind] ?? 3), $0.offset) < ((rank[$1.element.kind] ?? 3), $1.offset)
        }
        .map(\.element)
    }

    @Test("every interface of the XML, member by member")
    func contractEqualsTheIntrospection() throws {
        let document = Self.parse(try String(contentsOf: Self.file, encoding: .utf8))
        let contract: [String: [Member]] = [
            KBlinkContract.Manager.interface.rawValue: Self.contract(
                methods: KBlinkContract.Manager.methods, signals: KBlinkContract.Manager.signals,
                properties: KBlinkContract.Manager.properties),
            KBlinkContract.Keyboard.interface.rawValue: Self.contract(
                methods: KBlinkContract.Keyboard.methods, signals: KBlinkContract.Keyboard.signals,
                properties: KBlinkContract.Keyboard.properties),
            KBlinkContract.Keymap.interface.rawValue: Self.contract(
                methods: KBlinkContract.Keymap.methods, signals: KBlinkContract.Keymap.signals,
                properties: KBlinkContract.Keymap.properties),
        ]
        #expect(Set(document.keys) == Set(contract.keys))
        for (interface, members) in contract {
            #expect(Self.ordered(document[interface] ?? []) == members, "\(interface)")
        }
    }

    @Test("a parse of a changed document sees the change (the comparison can fail)")
    func changedDocumentDiffers() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let changed = text.replacingOccurrences(of: "name=\"trusted\" type=\"b\"", with: "name=\"trusted\" type=\"s\"")
        #expect(changed != text)
        let members = Self.parse(changed)[KBlinkContract.Keyboard.interface.rawValue] ?? []
        let expected = Self.contract(
            methods: KBlinkContract.Keyboard.methods, signals: KBlinkContract.Keyboard.signals,
            properties: KBlinkContract.Keyboard.properties)
        #expect(Self.ordered(members) != expected)
    }
}
