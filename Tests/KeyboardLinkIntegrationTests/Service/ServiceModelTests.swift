import KeyboardLink
import KeyboardLinkTestSupport
import Testing

@Suite("kblinkd's live model of BlueZ")
struct ServiceModelTests {
    @Test("keyboards are exported with what BlueZ says; the phone and the mouse are not")
    func exportsKeyboardsOnly() async throws {
        try await withDaemon { harness in
            let client = try await harness.client()
            let keyboards = try await client.keyboards()
            #expect(keyboards.map(\.alias) == ["Aula F87", "VGN 98Pro"])
            let aula = try #require(keyboards.first)
            #expect(aula.address == "F8:70:00:00:00:87")
            #expect(aula.connected && aula.paired && aula.trusted)
            #expect(aula.battery == [KeyboardInfo.BatteryPart(part: "main", level: 85)])
            #expect(aula.path.rawValue == "/org/kblink1/keyboards/dev_F8_70_00_00_00_87")
            let vgn = keyboards[1]
            #expect(!vgn.connected)
            #expect(vgn.battery.first?.level == 60)
            let status = try await client.status()
            #expect(status.blueZRunning && status.bluetoothAvailable && !status.discovering)
            #expect(status.version == KBlink.version)
            await client.close()
        }
    }

    @Test("BlueZ killed and restarted under a running daemon: the list is right again")
    func blueZRestart() async throws {
        try await withDaemon { harness in
            let client = try await harness.client()
            #expect(try await client.keyboards().count == 2)
            await harness.bluez.kill()
            #expect(try await eventually { try await client.keyboards().isEmpty })
            #expect(
                try await eventually {
                    let down = try await client.status()
                    return !down.blueZRunning && !down.bluetoothAvailable && !down.hardwareKeyboardAttached
                })
            try await harness.bluez.start()
            #expect(try await eventually { try await client.keyboards().count == 2 })
            #expect(try await eventually { try await client.status().hardwareKeyboardAttached })
            // And again, to be sure nothing accumulates.
            try await harness.bluez.restart()
            #expect(
                try await eventually {
                    try await client.keyboards().map(\.alias) == ["Aula F87", "VGN 98Pro"]
                })
            await client.close()
        }
    }

    @Test("connecting a keyboard flips HardwareKeyboardAttached; the phone and the mouse never do")
    func bluetoothPresence() async throws {
        var aula = SimulatedDevice.aulaF87
        aula.connected = false
        try await withDaemon(devices: [aula, .phone, .mouse]) { harness in
            let client = try await harness.client()
            #expect(try await client.status().hardwareKeyboardAttached == false)
            try await harness.bluez.setConnected(aula.address, true)
            #expect(try await eventually { try await client.status().hardwareKeyboardAttached })
            let attached = try await client.status().hardwareKeyboards
            #expect(
                attached == [
                    ManagerStatus.AttachedKeyboard(source: "bluetooth", id: "F8:70:00:00:00:87", name: "Aula F87")
                ])
            try await harness.bluez.setConnected(aula.address, false)
            #expect(try await eventually { try await !client.status().hardwareKeyboardAttached })
            try await harness.bluez.setConnected(SimulatedDevice.mouse.address, false)
            try await harness.bluez.setConnected(SimulatedDevice.mouse.address, true)
            try await harness.bluez.setConnected(SimulatedDevice.phone.address, false)
            try await harness.bluez.setConnected(SimulatedDevice.phone.address, true)
            #expect(try await !client.status().hardwareKeyboardAttached)
            await client.close()
        }
    }

    @Test("discovery finds keyboards in pairing mode and not headsets")
    func discovery() async throws {
        try await withDaemon { harness in
            let client = try await harness.client()
            try await client.manager.call(MemberName("StartDiscovery"))
            #expect(try await eventually { try await client.status().discovering })
            #expect(try await eventually { try await client.keyboards().contains { $0.alias == "Keychron K3 Pro" } })
            #expect(try await !client.keyboards().contains { $0.alias.contains("Headset") })
            try await client.manager.call(MemberName("StopDiscovery"))
            #expect(try await eventually { try await !client.status().discovering })
            await client.close()
        }
    }

    @Test("discovery started and stopped back to back, again and again: every start and stop succeeds, none is left")
    func discoveryBackToBack() async throws {
        try await withDaemon { harness in
            // As with BlueZ, the adapter says it is discovering only after it answered StartDiscovery.
            await harness.bluez.setDiscoveringAnnouncementDelay(.milliseconds(50))
            let client = try await harness.client()
            for round in 0..<30 {
                do {
                    try await client.manager.call(MemberName("StartDiscovery"))
                    // Every other round stops at once, before kblinkd has seen BlueZ say it is discovering.
                    if round % 2 == 1 { try await Task.sleep(for: .milliseconds(20)) }
                    try await client.manager.call(MemberName("StopDiscovery"))
                } catch {
                    Issue.record("round \(round): \(error)")
                    break
                }
            }
            #expect(await eventually { await harness.bluez.adapterList.allSatisfy { !$0.discovering } })
            // A session lost with BlueZ is not counted as running: after a restart, discovery starts again.
            try await client.manager.call(MemberName("StartDiscovery"))
            try await harness.bluez.restart()
            // bluetoothAvailable may still be what kblinkd saw before the restart: wait for StartDiscovery itself
            // to succeed (it answers "BlueZ is not running" until kblinkd has seen BlueZ come back).
            await eventually(
                "StartDiscovery after the restart", { try await client.manager.call(MemberName("StartDiscovery")) },
                satisfies: { _ in true })
            #expect(await eventually { await harness.bluez.adapterList.contains { $0.discovering } })
            try await client.manager.call(MemberName("StopDiscovery"))
            #expect(await eventually { await harness.bluez.adapterList.allSatisfy { !$0.discovering } })
            await client.close()
        }
    }

    @Test("connect, disconnect, trust and forget reach BlueZ")
    func keyboardMethods() async throws {
        try await withDaemon { harness in
            let client = try await harness.client()
            let vgn = try await client.keyboard(matching: "vgn")
            try await client.call(KBlinkContract.Keyboard.connect, on: vgn)
            #expect(await harness.bluez.device(SimulatedDevice.vgn98Pro.address)?.connected == true)
            #expect(try await eventually { try await client.keyboard(matching: "vgn").connected })
            try await client.call(KBlinkContract.Keyboard.disconnect, on: vgn)
            #expect(await harness.bluez.device(SimulatedDevice.vgn98Pro.address)?.connected == false)
            try await client.call(KBlinkContract.Keyboard.setTrusted, on: vgn, false)
            #expect(await harness.bluez.device(SimulatedDevice.vgn98Pro.address)?.trusted == false)
            try await client.call(KBlinkContract.Keyboard.forget, on: vgn)
            #expect(await harness.bluez.device(SimulatedDevice.vgn98Pro.address) == nil)
            #expect(try await eventually { try await client.keyboards().map(\.alias) == ["Aula F87"] })
            await client.close()
        }
    }

    @Test("several adapters, one powered off")
    func severalAdapters() async throws {
        let bus = try await TestBus()
        let bluez = SimulatedBlueZ(bus: bus.busAddress, adapterCount: 2, devices: [.aulaF87])
        try await bluez.start()
        try await bluez.add(.vgn98Pro, adapter: 1)
        try await bluez.setPowered(adapter: 0, false)
        let connection = try await bus.connect()
        let service = KeyboardLinkService(
            connection: connection, options: .init(stateDirectory: "/tmp"), log: { _, _ in })
        try await service.start()
        let client = try await KBlinkClient.connect(to: bus.busAddress)
        #expect(try await client.keyboards().count == 2)
        #expect(try await client.status().bluetoothAvailable)
        try await bluez.setPowered(adapter: 1, false)
        #expect(try await eventually { try await !client.status().bluetoothAvailable })
        await #expect(throws: DBusError.self) { try await client.manager.call(MemberName("StartDiscovery")) }
        await client.close()
        await service.stop()
        await connection.close()
        await bluez.kill()
    }
}
