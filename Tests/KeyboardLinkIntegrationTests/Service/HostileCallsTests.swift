import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// A few thousand random calls to every object and method of org.kblink1: each answer is an error of ours or a
/// standard D-Bus error (or a reply), and the daemon keeps serving.
@Suite("Random and hostile calls to kblinkd")
struct HostileCallsTests {
    static func randomValue(_ generator: inout SeededRandom, depth: Int = 0) -> DBusValue {
        let hostileStrings = [
            "", "AA:BB", "aula", "ZZ:ZZ:ZZ:ZZ:ZZ:ZZ", String(repeating: "x", count: 5000), "\u{1F3B9}", "../../etc",
            "'; DROP",
            "F8:70:00:00:00:87", "dev_F8_70_00_00_00_87",
        ]
        switch generator.next() % (depth > 2 ? 8 : 11) {
        case 0: return .boolean(generator.next() % 2 == 0)
        case 1: return .uint32(UInt32(truncatingIfNeeded: generator.next()))
        case 2: return .int32(Int32(truncatingIfNeeded: generator.next()))
        case 3: return .byte(UInt8(truncatingIfNeeded: generator.next()))
        case 4, 5: return .string(generator.pick(hostileStrings))
        case 6:
            return .double(Double(bitPattern: generator.next()).isNaN ? 0 : Double(bitPattern: generator.next() >> 2))
        case 7: return .objectPath(generator.pick([ObjectPath.root, KBlink.managerPath]))
        case 8: return .variant(randomValue(&generator, depth: depth + 1))
        case 9: return .array(.string, [.string(generator.pick(hostileStrings))])
        default:
            return .dictionary(
                key: .string, value: .variant,
                [
                    DBusDictionaryEntry(
                        key: .string(generator.pick(hostileStrings)),
                        value: .variant(randomValue(&generator, depth: depth + 1)))
                ])
        }
    }

    @Test("3,000 random calls get proper errors and the daemon survives")
    func randomCalls() async throws {
        try await withDaemon { harness in
            let connection = try await harness.bus.connect()
            let keyboard = KBlink.keyboardPath(SimulatedDevice.aulaF87.address)
            let targets: [(ObjectPath, InterfaceName, [String])] = [
                (KBlink.managerPath, KBlink.managerInterface, ["StartDiscovery", "StopDiscovery", "Pair", "Nope"]),
                (keyboard, KBlink.keyboardInterface, ["Connect", "Disconnect", "SetTrusted", "RefreshInfo", "Nope"]),
                (KBlink.managerPath, .properties, ["Get", "GetAll", "Set"]),
                (keyboard, .properties, ["Get", "GetAll", "Set"]),
                (KBlink.managerPath, .objectManager, ["GetManagedObjects"]),
                (ObjectPath("/org/kblink1/keyboards/dev_00_00_00_00_00_00"), KBlink.keyboardInterface, ["Connect"]),
            ]
            var generator = SeededRandom(seed: 0x6B62_6C69_6E6B)
            var outcomes: [String: Int] = [:]
            for _ in 0..<3_000 {
                let (path, interface, members) = generator.pick(targets)
                let member = try MemberName(generator.pick(members))
                // Leave out the calls that would really act (forget, long discovery) so the state stays comparable.
                let count = Int(generator.next() % 4)
                var arguments = (0..<count).map { _ in Self.randomValue(&generator) }
                if member.rawValue == "SetTrusted" && arguments == [.boolean(false)] { arguments = [.boolean(true)] }
                do {
                    try await connection.call(
                        destination: KBlink.service, path: path, interface: interface, member: member, arguments,
                        timeout: .seconds(10))
                    outcomes["reply", default: 0] += 1
                } catch let error as DBusError {
                    let name = error.name.rawValue
                    #expect(
                        name.hasPrefix("org.kblink1.Error.") || name.hasPrefix("org.freedesktop.DBus.Error."),
                        "\(error)")
                    #expect(!error.message.isEmpty)
                    #expect(name != "org.freedesktop.DBus.Error.NoReply", "the daemon must answer: \(member)")
                    outcomes[name, default: 0] += 1
                }
            }
            #expect(outcomes["org.freedesktop.DBus.Error.InvalidArgs", default: 0] > 100)
            // Still serving, with the same keyboards.
            let client = try await harness.client()
            #expect(try await client.keyboards().count >= 2)
            #expect(try await client.status().blueZRunning)
            await client.close()
            await connection.close()
        }
    }
}
