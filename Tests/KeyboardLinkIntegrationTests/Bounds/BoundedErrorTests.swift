import Foundation
import KeyboardLink
import Testing

/// Every method of `org.kblink1` called with 1 MiB strings: whatever the answer, an error quotes at most 120
/// characters of what it was given.
@Suite("Errors quote at most 120 characters of their input")
struct BoundedErrorTests {
    static let huge = String(repeating: "x", count: 1 << 20)

    /// A method's name and its input signature, from the object's introspection.
    struct Method {
        let interface: InterfaceName
        let name: String
        let inputs: [String]
    }

    /// The methods of `interfaces` whose inputs are strings, string arrays, booleans or string dictionaries.
    static func methods(in xml: String, interfaces: Set<String>) -> [Method] {
        var found: [Method] = []
        var interface: String?
        var current: (String, [String])?
        for line in xml.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("<interface name=\"") {
                interface = text.split(separator: "\"")[1].description
            } else if text.hasPrefix("<method name=\"") {
                current = (text.split(separator: "\"")[1].description, [])
                if text.hasSuffix("/>"), let name = current?.0, let interface, interfaces.contains(interface) {
                    found.append(Method(interface: try! InterfaceName(interface), name: name, inputs: []))
                    current = nil
                }
            } else if text.hasPrefix("<arg"), current != nil, !text.contains("direction=\"out\"") {
                if let range = text.range(of: "type=\"") {
                    let type = text[range.upperBound...].prefix { $0 != "\"" }
                    current?.1.append(String(type))
                }
            } else if text.hasPrefix("</method>"), let (name, inputs) = current, let interface,
                interfaces.contains(interface)
            {
                found.append(Method(interface: try! InterfaceName(interface), name: name, inputs: inputs))
                current = nil
            }
        }
        return found
    }

    /// A value of `type` carrying the huge string wherever a string fits; nil for types left out.
    static func hostile(_ type: String) -> DBusValue? {
        switch type {
        case "s": .string(huge)
        case "b": .boolean(false)
        case "u": .uint32(0)
        case "as": .array(.string, [.string(huge)])
        case "a{sv}":
            .dictionary(
                key: .string, value: .variant,
                [
                    DBusDictionaryEntry(key: .string("screen"), value: .variant(.string(huge))),
                    DBusDictionaryEntry(key: .string(huge), value: .variant(.string(huge))),
                ])
        case "a{ss}":
            .dictionary(key: .string, value: .string, [DBusDictionaryEntry(key: .string(huge), value: .string(huge))])
        default: nil
        }
    }

    @Test("each method's error quotes at most 120 characters of a 1 MiB argument")
    func hugeArguments() async throws {
        try await withDaemon { harness in
            let connection = try await harness.bus.connect()
            let keyboard = KBlink.keyboardPath(SimulatedDevice.aulaF87.address)
            var checked = 0
            var leaks: [String] = []
            for path in [KBlink.managerPath, keyboard] {
                let reply = try await connection.call(
                    destination: KBlink.service, path: path, interface: .introspectable,
                    member: MemberName("Introspect"))
                let xml = try reply.decode(String.self)
                let methods = Self.methods(
                    in: xml,
                    interfaces: [
                        KBlink.managerInterface.rawValue, KBlink.keyboardInterface.rawValue,
                        KBlink.keymapInterface.rawValue,
                    ])
                for method in methods where !["Forget", "StartDiscovery", "CancelPairing"].contains(method.name) {
                    let arguments = method.inputs.map(Self.hostile)
                    guard !arguments.isEmpty, arguments.allSatisfy({ $0 != nil }) else { continue }
                    checked += 1
                    do {
                        try await connection.call(
                            destination: KBlink.service, path: path, interface: method.interface,
                            member: MemberName(method.name), arguments.compactMap { $0 }, timeout: .seconds(20))
                    } catch let error as DBusError {
                        if error.message.contains(String(repeating: "x", count: 121)) {
                            leaks.append("\(method.name): \(error.name.rawValue), \(error.message.count) characters")
                        }
                    }
                }
            }
            // Writable properties: the value set is quoted back when it is refused.
            for (interface, property) in [(KBlink.keymapInterface, "CurrentZone")] {
                checked += 1
                do {
                    try await connection.call(
                        destination: KBlink.service, path: keyboard, interface: .properties, member: MemberName("Set"),
                        [.string(interface.rawValue), .string(property), .variant(.string(Self.huge))])
                } catch let error as DBusError {
                    if error.message.contains(String(repeating: "x", count: 121)) {
                        leaks.append("Set \(property): \(error.name.rawValue), \(error.message.count) characters")
                    }
                }
            }
            // ResolveInsets quotes what it refuses: an unknown event, a field id, a focused field that is not among them.
            let rect = DBusValue.array(.double, [.double(0), .double(0), .double(10), .double(10)])
            let screen = DictionaryEntryMaker.entry("screen", .array(.double, [.double(1024), .double(1366)]))
            let long = String(repeating: "x", count: 60_000)  // under the 64 KiB request limit
            let requests: [[DBusDictionaryEntry]] = [
                [
                    screen, DictionaryEntryMaker.entry("event", .string(long)),
                    DictionaryEntryMaker.entry("keyboard", rect),
                ],
                [
                    screen,
                    DictionaryEntryMaker.entry(
                        "fields",
                        .dictionary(
                            key: .string, value: .variant,
                            [DBusDictionaryEntry(key: .string(long), value: .variant(.string("not a rect")))])),
                ],
                [
                    screen,
                    DictionaryEntryMaker.entry(
                        "fields",
                        .dictionary(
                            key: .string, value: .variant,
                            [DBusDictionaryEntry(key: .string(long), value: .variant(rect))])),
                    DictionaryEntryMaker.entry("focused-field", .string("y")),
                ],
            ]
            for (index, request) in requests.enumerated() {
                checked += 1
                do {
                    try await connection.call(
                        destination: KBlink.service, path: KBlink.managerPath, interface: KBlink.managerInterface,
                        member: MemberName("ResolveInsets"),
                        [.dictionary(key: .string, value: .variant, request)])
                    leaks.append("ResolveInsets request \(index) was answered")
                } catch let error as DBusError {
                    if error.message.contains(String(repeating: "x", count: 121)) {
                        leaks.append("ResolveInsets request \(index): \(error.message.count) characters")
                    }
                }
            }
            #expect(checked >= 13)
            #expect(leaks.isEmpty, "\(leaks)")
        }
    }
}

/// `a{sv}` entries for requests.
enum DictionaryEntryMaker {
    static func entry(_ key: String, _ value: DBusValue) -> DBusDictionaryEntry {
        DBusDictionaryEntry(key: .string(key), value: .variant(value))
    }
}
