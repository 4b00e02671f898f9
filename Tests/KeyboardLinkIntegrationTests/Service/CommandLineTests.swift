import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The real `kblink` binary against a daemon on a private bus.
@Suite("kblink commands, output and exit codes")
struct CommandLineTests {
    @Test("list --json shows exactly what the simulated BlueZ holds")
    func listJSON() async throws {
        try await withDaemon { harness in
            let result = try await harness.kblink(["list", "--json"])
            #expect(result.status == 0, "\(result.standardError)")
            let data = Data(result.standardOutput.utf8)
            let keyboards = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            #expect(keyboards.count == 2)
            #expect(keyboards[0]["address"] as? String == "F8:70:00:00:00:87")
            #expect(keyboards[0]["connected"] as? Bool == true)
            #expect((keyboards[0]["battery"] as? [[String: Any]])?.first?["level"] as? Int == 85)
            #expect(keyboards[1]["alias"] as? String == "VGN 98Pro")
            #expect(keyboards[1]["paired"] as? Bool == true)
        }
    }

    @Test("status, list and info for people")
    func humanOutput() async throws {
        try await withDaemon { harness in
            let status = try await harness.kblink(["status"])
            #expect(status.status == 0)
            #expect(status.standardOutput.contains("BlueZ:              running, adapter powered"))
            #expect(status.standardOutput.contains("attached — Aula F87 (bluetooth F8:70:00:00:00:87)"))
            // Counted by health, none needing a look: no line per keyboard.
            let counts = status.lines.filter { $0.hasPrefix("Keyboards:") }
            #expect(counts.count == 1, "\(status.standardOutput)")
            #expect(counts.first?.contains("1 working") == true, "\(status.standardOutput)")
            #expect(!status.standardOutput.contains("Keyboard: "), "\(status.standardOutput)")
            let list = try await harness.kblink(["list"])
            #expect(list.lines.first?.hasPrefix("ADDRESS") == true)
            #expect(list.lines.count == 3)
            #expect(!list.standardOutput.contains("\u{1B}["), "no colours when not a terminal")
            let info = try await harness.kblink(["info", "98:00:00:00:98:01"])
            #expect(info.standardOutput.contains("VGN 98Pro"))
            #expect(info.standardOutput.contains("Battery:    60%"))
        }
    }

    @Test("a keyboard name with terminal escapes is shown escaped in text and exact in JSON")
    func hostileName() async throws {
        var hostile = SimulatedDevice.vgn98Pro
        hostile.name = "VGN\u{1B}]0;pwned\u{07}\u{1B}[2K\rFAKE"
        try await withDaemon(devices: [SimulatedDevice.aulaF87, hostile]) { harness in
            for arguments in [["list"], ["info", "98:00:00:00:98:01"], ["keymap", "show", "98:00:00:00:98:01"]] {
                let result = try await harness.kblink(arguments)
                #expect(result.status == 0, "\(arguments): \(result.standardError)")
                #expect(result.standardOutput.contains("VGN^[]0;pwned^G^[[2K^MFAKE"), "\(arguments)")
                let controls = result.standardOutput.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" }
                #expect(controls.isEmpty, "\(arguments) wrote control characters: \(controls.map(\.value))")
            }
            let json = try await harness.kblink(["list", "--json"])
            #expect(json.standardOutput.contains(#""alias":"VGN\u001b]0;pwned\u0007\u001b[2K\rFAKE""#))
            let ambiguous = try await harness.kblink(["info", "\u{1B}[2J"])
            #expect(ambiguous.status == 4)
            #expect(!ambiguous.standardError.contains("\u{1B}"), "\(ambiguous.standardError)")
        }
    }

    @Test("connect, disconnect, trust, untrust and forget by name prefix")
    func actions() async throws {
        try await withDaemon { harness in
            #expect(try await harness.kblink(["connect", "VGN"]).status == 0)
            #expect(await harness.bluez.device(SimulatedDevice.vgn98Pro.address)?.connected == true)
            #expect(try await harness.kblink(["untrust", "vgn"]).status == 0)
            #expect(await harness.bluez.device(SimulatedDevice.vgn98Pro.address)?.trusted == false)
            #expect(try await harness.kblink(["trust", "vgn"]).status == 0)
            #expect(await harness.bluez.device(SimulatedDevice.vgn98Pro.address)?.trusted == true)
            #expect(try await harness.kblink(["disconnect", "vgn"]).status == 0)
            // BlueZ announces the disconnection once the link is down: wait for that state.
            #expect(
                await eventually { await harness.bluez.device(SimulatedDevice.vgn98Pro.address)?.connected == false })
            let forget = try await harness.kblink(["forget", "vgn", "--json"])
            #expect(forget.status == 0)
            #expect(forget.standardOutput.contains("\"ok\":true"))
            #expect(await harness.bluez.device(SimulatedDevice.vgn98Pro.address) == nil)
        }
    }

    @Test("scan shows the keyboard found and not the headset")
    func scan() async throws {
        try await withDaemon { harness in
            // The simulator finds the keyboard 0.3 s into discovery; the long window is for a loaded machine (CI runs
            // ~750 tests on 2 cores), where 4 s was not always enough for the daemon to see it and tell kblink.
            let result = try await harness.kblink(["scan", "--timeout", "12"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("found  DC:2C:26:00:00:03  Keychron K3 Pro"))
            #expect(!result.standardOutput.contains("Headset"))
            #expect(await harness.bluez.adapterList.allSatisfy { !$0.discovering })
        }
    }

    @Test(
        "scan lists the unpaired keyboards kblinkd already knows in JSON too, and its count matches its lines",
        arguments: [true, false])
    func scanKnownKeyboards(json: Bool) async throws {
        // One scan per daemon: a second scan started right after the first can meet BlueZ still discovering.
        try await withDaemon { harness in
            // Known before the scan starts (as after an earlier scan): a scan finds nothing new.
            var keychron = SimulatedDevice.keychronK3
            keychron.discoverableOnly = false
            try await harness.bluez.add(keychron)
            let client = try await harness.client()
            let known = try await eventually {
                try await client.keyboards().contains { $0.address == "DC:2C:26:00:00:03" }
            }
            await client.close()
            #expect(known)

            let result = try await harness.kblink(["scan", "--timeout", "1"] + (json ? ["--json"] : []))
            #expect(result.status == 0, "\(result.standardError)")
            if json {
                let objects = result.lines.compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                #expect(objects.count == result.lines.count, "every line is a JSON object: \(result.standardOutput)")
                #expect(objects.map { $0["address"] as? String } == ["DC:2C:26:00:00:03"])
                #expect(objects.first?["alias"] as? String == "Keychron K3 Pro")
                #expect(objects.first?["paired"] as? Bool == false)
                let help = try await harness.kblink(["scan", "--help"])
                #expect(help.standardOutput.contains("address, name, alias, paired"))
            } else {
                #expect(
                    result.lines.filter { $0.hasPrefix("  found  ") } == ["  found  DC:2C:26:00:00:03  Keychron K3 Pro"]
                )
                #expect(
                    result.lines.last?.hasPrefix("Done. 1 keyboard(s) found, 0 new.") == true,
                    "\(result.standardOutput)")
            }
        }
    }

    @Test(
        "usage errors are one JSON object on standard error when --json is given, exit code 2",
        arguments: [
            ["status", "--bogus", "--json"], ["frobnicate", "--json"], ["info", "--json"],
            ["list", "extra", "--json"], ["scan", "--timeout", "0x10", "--json"],
            ["status", "--json", "--bus", "bogus"],
            ["info", "", "--json"],
        ])
    func usageErrorsInJSON(_ arguments: [String]) async throws {
        // No daemon: a usage error is found before kblink connects.
        let result = try await runProcess(DaemonHarness.binary("kblink"), arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): one line: \(result.standardError)")
        let object = try? JSONSerialization.jsonObject(with: Data(result.standardError.utf8)) as? [String: Any]
        let message = object?["error"] as? String
        #expect(message?.isEmpty == false, "\(arguments): \(result.standardError)")
    }

    @Test(
        "an empty DEVICE is named as such, before kblink connects",
        arguments: [
            ["info", ""], ["connect", ""], ["pair", ""], ["keymap", "show", ""], ["profile", "export", ""],
            ["info", "  "],
        ])
    func emptyDevice(_ arguments: [String]) async throws {
        try await withDaemon { harness in
            let result = try await harness.kblink(arguments)
            #expect(result.status == 2, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("DEVICE is empty"), "\(arguments): \(result.standardError)")
            #expect(!result.standardError.contains("matches"), "\(arguments): \(result.standardError)")
        }
    }

    @Test(
        "exit codes: usage 2, not found 4",
        arguments: [
            (["info"], Int32(2)), (["info", "nope"], Int32(4)), (["list", "extra"], Int32(2)),
            (["frobnicate"], Int32(2)),
            (["scan", "--timeout", "zero"], Int32(2)), (["list", "--colour"], Int32(2)),
            (["scan", "--timeout", "0x10"], Int32(2)), (["scan", "--timeout", "1e1"], Int32(2)),
            (["info", "AA:BB:CC:DD:EE:FF"], Int32(4)),
            (["list", "--help"], Int32(0)),
        ])
    func exitCodes(_ arguments: [String], _ expected: Int32) async throws {
        try await withDaemon { harness in
            let result = try await harness.kblink(arguments)
            #expect(result.status == expected, "\(arguments): \(result.standardError)")
            if expected != 0 { #expect(!result.standardError.isEmpty) }
        }
    }

    @Test("kblinkd missing and BlueZ missing are different messages")
    func missingPieces() async throws {
        let bus = try await TestBus()
        let noDaemon = try await runProcess(DaemonHarness.binary("kblink"), ["status", "--bus", bus.address])
        #expect(noDaemon.status == 3)
        #expect(noDaemon.standardError.contains("kblinkd is not running"))
        let noBus = try await runProcess(
            DaemonHarness.binary("kblink"), ["status", "--bus", "unix:path=/nonexistent/bus"])
        #expect(noBus.status == 3)
        #expect(noBus.standardError.contains("cannot connect"))

        try await withDaemon { harness in
            await harness.bluez.kill()
            let client = try await harness.client()
            #expect(try await eventually { try await !client.status().blueZRunning })
            await client.close()
            let status = try await harness.kblink(["status"])
            #expect(status.standardOutput.contains("not running"))
            #expect(status.standardOutput.contains("systemctl start bluetooth"))
            let scan = try await harness.kblink(["scan", "--timeout", "1"])
            #expect(scan.status == 1)
            #expect(scan.standardError.contains("BlueZ is not running"))
        }
    }

    @Test("the bus comes from KBLINK_BUS when --bus is not given")
    func busFromEnvironment() async throws {
        try await withDaemon { harness in
            let result = try await runProcess(
                DaemonHarness.binary("kblink"), ["status", "--json"], environment: ["KBLINK_BUS": harness.bus.address])
            #expect(result.status == 0)
            #expect(result.standardOutput.contains("\"bluezRunning\":true"))
        }
    }
}
