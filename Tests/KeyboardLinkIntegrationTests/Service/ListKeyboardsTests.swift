import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `org.kblink1.Manager.ListKeyboards` against the real service on a private bus: the same keyboards and values as
/// `GetManagedObjects`, before and after changes, and `kblink list` built on it.
@Suite("Manager.ListKeyboards")
struct ListKeyboardsTests {
    /// The `org.kblink1.Keyboard` properties in the order of a `ListKeyboards` entry (after the path).
    static let propertyOrder = [
        "Address", "Name", "Alias", "Paired", "Trusted", "Connected", "Battery", "Firmware", "Driver",
    ]

    /// Each keyboard object of `GetManagedObjects`, as the `ListKeyboards` entry it should match:
    /// `(o, s, s, s, b, b, b, a(sy), a{ss}, s, b, s, s)` built from its `org.kblink1.Keyboard` properties and, for
    /// `bonded`, `Paired` (the simulated BlueZ bonds exactly its paired devices), then `Health` and `HealthDetail`.
    static func expectedEntries(_ connection: BusConnection) async throws -> [ObjectPath: DBusValue] {
        let reply = try await connection.call(
            destination: KBlink.service, path: KBlink.managerPath, interface: .objectManager,
            member: MemberName("GetManagedObjects"))
        let objects = try reply.decode([ObjectPath: [String: [String: DBusValue]]].self)
        var entries: [ObjectPath: DBusValue] = [:]
        for (path, interfaces) in objects {
            guard let properties = interfaces[KBlink.keyboardInterface.rawValue] else { continue }
            var fields: [DBusValue] = [.objectPath(path)]
            for name in propertyOrder {
                fields.append(try #require(properties[name], "\(path) has no \(name)").unwrapped)
            }
            fields.append(try #require(properties["Paired"]).unwrapped)
            fields.append(try #require(properties["Health"]).unwrapped)
            fields.append(try #require(properties["HealthDetail"]).unwrapped)
            entries[path] = .structure(fields)
        }
        return entries
    }

    /// The `ListKeyboards` answer as it came over the bus.
    static func listed(_ connection: BusConnection) async throws -> [DBusValue] {
        let reply = try await connection.call(
            destination: KBlink.service, path: KBlink.managerPath, interface: KBlink.managerInterface,
            member: MemberName("ListKeyboards"))
        #expect(reply.signature.rawValue == "a(osssbbba(sy)a{ss}sbss)")
        guard reply.body.count == 1, case .array(_, let entries) = reply.body[0] else {
            Issue.record("ListKeyboards answered '\(reply.signature.rawValue)'")
            return []
        }
        return entries
    }

    /// Whether `ListKeyboards` and `GetManagedObjects` agree, keyboard by keyboard, and the list is by address.
    static func agree(_ connection: BusConnection) async throws -> Bool {
        let entries = try await listed(connection)
        let expected = try await expectedEntries(connection)
        var byPath: [ObjectPath: DBusValue] = [:]
        var addresses: [String] = []
        for entry in entries {
            guard case .structure(let fields) = entry, case .objectPath(let path)? = fields.first,
                case .string(let address)? = fields.dropFirst().first
            else { return false }
            byPath[path] = entry
            addresses.append(address)
        }
        return byPath.count == entries.count && byPath == expected && addresses == addresses.sorted()
    }

    @Test("the same keyboards and values as GetManagedObjects, and not the phone or the mouse")
    func sameAsManagedObjects() async throws {
        try await withDaemon(devices: [.aulaF87, .vgn98Pro, .phone, .mouse]) { harness in
            let connection = try await harness.bus.connect()
            // The connected Aula gets its Device Information read over GATT: wait for a filled Firmware so the
            // comparison covers a non-empty a{ss}.
            #expect(
                try await eventually {
                    try await Self.listed(connection).contains { entry in
                        guard case .structure(let fields) = entry, fields.count == 13,
                            case .dictionary(_, _, let firmware) = fields[8]
                        else { return false }
                        return !firmware.isEmpty
                    }
                })
            // A firmware read may still be finishing between the two calls: they must agree once it is done.
            #expect(try await eventually { try await Self.agree(connection) })
            let entries = try await Self.listed(connection)
            #expect(
                entries.compactMap { entry -> String? in
                    guard case .structure(let fields) = entry, case .string(let alias) = fields[3] else { return nil }
                    return alias
                } == ["VGN 98Pro", "Aula F87"], "by address: 98:00:00:00:98:01 before F8:70:00:00:00:87")
            await connection.close()
        }
    }

    @Test("after connections, battery and trust changes, a keyboard added and one removed, both still agree")
    func agreesAfterChanges() async throws {
        try await withDaemon(devices: [.aulaF87, .vgn98Pro, .phone]) { harness in
            let connection = try await harness.bus.connect()
            let client = try await harness.client()
            let vgn = SimulatedDevice.vgn98Pro.address
            try await harness.bluez.setConnected(vgn, true)
            try await harness.bluez.setBattery(vgn, 7)
            try await client.call(
                KBlinkContract.Keyboard.setTrusted, on: client.keyboard(matching: "VGN"), false)
            var added = SimulatedDevice(
                address: try #require(BluetoothAddress(validating: "C0:FF:EE:00:00:01")), name: "Added Board")
            added.classOfDevice = 0x0025_40
            added.icon = "input-keyboard"
            added.paired = true
            try await harness.bluez.add(added)
            await harness.bluez.remove(SimulatedDevice.aulaF87.address)

            #expect(
                try await eventually {
                    let keyboards = try await client.keyboards()
                    return keyboards.map(\.alias) == ["Added Board", "VGN 98Pro"]
                        && keyboards[1].connected && !keyboards[1].trusted
                        && keyboards[1].battery == [KeyboardInfo.BatteryPart(part: "main", level: 7)]
                })
            #expect(try await eventually { try await Self.agree(connection) })
            await client.close()
            await connection.close()
        }
    }

    @Test("arguments are refused with InvalidArgs and the daemon goes on answering")
    func refusesArguments() async throws {
        try await withDaemon { harness in
            let connection = try await harness.bus.connect()
            for arguments: [DBusValue] in [[.string("all")], [.uint32(1)], [.boolean(true), .string("x")]] {
                do {
                    _ = try await connection.call(
                        destination: KBlink.service, path: KBlink.managerPath, interface: KBlink.managerInterface,
                        member: MemberName("ListKeyboards"), arguments)
                    Issue.record("ListKeyboards accepted \(arguments)")
                } catch let error as DBusError {
                    #expect(error.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs", "\(error)")
                }
            }
            #expect(try await Self.listed(connection).count == 2)
            await connection.close()
        }
    }

    @Test("kblink list --json: the documented keys, GetManagedObjects' values, by name then address")
    func commandLineOutput() async throws {
        var twin = SimulatedDevice.vgn98Pro
        twin.address = try #require(BluetoothAddress(validating: "98:00:00:00:98:00"))
        twin.name = "vgn 98pro"
        try await withDaemon(devices: [.aulaF87, .vgn98Pro, twin, .phone]) { harness in
            let connection = try await harness.bus.connect()
            // Wait for the connected Aula's firmware read, then take a run during which nothing changed.
            #expect(
                try await eventually {
                    let entries = try await Self.expectedEntries(connection)
                    return entries.count == 3
                        && entries.values.contains { entry in
                            guard case .structure(let fields) = entry, case .dictionary(_, _, let firmware) = fields[8]
                            else { return false }
                            return !firmware.isEmpty
                        }
                })
            var result = try await harness.kblink(["list", "--json"])
            var expected = try await Self.expectedEntries(connection)
            for _ in 0..<5 {
                let before = expected
                result = try await harness.kblink(["list", "--json"])
                expected = try await Self.expectedEntries(connection)
                if before == expected { break }
            }
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.hasSuffix("}]\n"), "one JSON line")
            let data = Data(result.standardOutput.utf8)
            let keyboards = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            // Aliases compared without case, then addresses: the twin (98:...:00) before the VGN (98:...:01).
            #expect(
                keyboards.compactMap { $0["address"] as? String } == [
                    "F8:70:00:00:00:87", "98:00:00:00:98:00", "98:00:00:00:98:01",
                ])
            for keyboard in keyboards {
                #expect(
                    Set(keyboard.keys) == [
                        "address", "name", "alias", "paired", "trusted", "connected", "bonded", "battery", "driver",
                        "health", "healthDetail", "firmware", "path",
                    ])
                let path = try ObjectPath(try #require(keyboard["path"] as? String))
                guard case .structure(let fields)? = expected[path], fields.count == 13 else {
                    Issue.record("no keyboard object at \(path)")
                    continue
                }
                #expect(keyboard["address"] as? String == fields[1].stringValue)
                #expect(keyboard["name"] as? String == fields[2].stringValue)
                #expect(keyboard["alias"] as? String == fields[3].stringValue)
                #expect(keyboard["paired"] as? Bool == fields[4].boolValue)
                #expect(keyboard["trusted"] as? Bool == fields[5].boolValue)
                #expect(keyboard["connected"] as? Bool == fields[6].boolValue)
                let battery = (keyboard["battery"] as? [[String: Any]] ?? []).map {
                    "\($0["part"] as? String ?? "?")=\($0["level"] as? Int ?? -1)"
                }
                let expectedBattery = (fields[7].arrayValue ?? []).map { part -> String in
                    guard case .structure(let pair) = part, case .byte(let level) = pair[1] else { return "bad" }
                    return "\(pair[0].stringValue ?? "?")=\(level)"
                }
                #expect(battery == expectedBattery)
                guard case .dictionary(_, _, let firmware) = fields[8] else { continue }
                let expectedFirmware = Dictionary(
                    uniqueKeysWithValues: firmware.map {
                        // kblink's JSON writes the property's PascalCase keys in camelCase.
                        let key = $0.key.stringValue ?? ""
                        return (key.prefix(1).lowercased() + key.dropFirst(), $0.value.stringValue ?? "")
                    })
                #expect(keyboard["firmware"] as? [String: String] == expectedFirmware)
                #expect(keyboard["driver"] as? String == fields[9].stringValue)
                #expect(keyboard["bonded"] as? Bool == fields[10].boolValue)
                #expect(keyboard["health"] as? String == fields[11].stringValue)
                #expect(keyboard["healthDetail"] as? String == fields[12].stringValue)
            }
            await connection.close()
        }
    }

    @Test("kblink list for people: a header and one row per keyboard, by name")
    func commandLineTable() async throws {
        try await withDaemon(devices: [.vgn98Pro, .aulaF87, .mouse]) { harness in
            let list = try await harness.kblink(["list"])
            #expect(list.status == 0, "\(list.standardError)")
            #expect(list.lines.count == 3)
            #expect(list.lines.first?.hasPrefix("ADDRESS") == true)
            #expect(list.lines.dropFirst().first?.hasPrefix("F8:70:00:00:00:87  Aula F87") == true)
            #expect(list.lines.last?.hasPrefix("98:00:00:00:98:01  VGN 98Pro") == true)
        }
    }
}
