import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblink disconnect` against a simulated BlueZ that auto-connects like bluetoothd: a trusted LE keyboard that
/// keeps advertising is connected again after a plain `Device1.Disconnect`; kblinkd's Disconnect keeps it away
/// until Connect, and keeps it trusted. Found by the real-stack rig (docs/real-bluez.md).
@Suite("Disconnect keeps a keyboard away", .serialized)
struct DisconnectStaysAwayTests {
    static var advertisingAula: SimulatedDevice {
        var device = SimulatedDevice.aulaF87
        device.advertisesWhileDisconnected = true
        return device
    }

    static let aula = SimulatedDevice.aulaF87.address

    @Test("the simulator, like bluetoothd: Device1.Disconnect of a trusted advertising keyboard reconnects it")
    func blueZReconnectsTrustedKeyboard() async throws {
        try await withFirmwareDaemon(devices: [Self.advertisingAula]) { daemon in
            let connection = try await BusConnection.connect(to: daemon.bus.busAddress)
            defer { Task { await connection.close() } }
            let path = try #require(await daemon.bluez.path(of: Self.aula))
            let device = DBusProxy(
                connection: connection, destination: BlueZ.service, path: path, interface: BlueZ.deviceInterface)
            try await device.call(MemberName("Disconnect"))
            #expect(await daemon.bluez.device(Self.aula)?.connected == false)
            #expect(await daemon.bluez.autoConnects(Self.aula))
            #expect(await eventually { await daemon.bluez.device(Self.aula)?.connected == true })
        }
    }

    @Test("the simulator, like bluetoothd: Disconnect keeps the link up for 2 s, refusing StartNotify, then answers")
    func blueZDisconnectTimer() async throws {
        try await withFirmwareDaemon(devices: [SimulatedDevice.aulaF87]) { daemon in
            let bluez = daemon.bluez
            await bluez.setDisconnectTimer(.seconds(2))
            let connection = try await BusConnection.connect(to: daemon.bus.busAddress)
            defer { Task { await connection.close() } }
            let path = try #require(await bluez.path(of: Self.aula))
            let battery = try #require(await bluez.gatt.path(ofCharacteristic: .batteryLevel, for: Self.aula))
            let device = DBusProxy(
                connection: connection, destination: BlueZ.service, path: path, interface: BlueZ.deviceInterface)
            let characteristic = DBusProxy(
                connection: connection, destination: BlueZ.service, path: battery,
                interface: BlueZ.gattCharacteristicInterface)
            // Connected already: answered with success, as bluetoothd answers it.
            try await device.call(MemberName("Connect"))
            let disconnect = Task {
                try await device.call(MemberName("Disconnect"))
                return await bluez.device(Self.aula)?.connected
            }
            #expect(await eventually { await bluez.gatt.isDisconnecting(Self.aula) })
            // bluetoothd's src/gatt-client.c: "Device is disconnecting. StartNotify is not allowed."
            do {
                try await characteristic.call(MemberName("StartNotify"))
                Issue.record("StartNotify succeeded while the device was disconnecting")
            } catch let error as DBusError {
                #expect(error.name == BlueZ.Error.notConnected, "\(error)")
            }
            #expect(await bluez.gatt.statistics(for: Self.aula).startNotifyRefusedWhileDisconnecting == 1)
            #expect(try await device.property(MemberName("Connected")) == .boolean(true))
            #expect(try await device.property(MemberName("ServicesResolved")) == .boolean(true))
            // The answer comes with the link down.
            #expect(try await disconnect.value == false)
            #expect(await !bluez.gatt.isDisconnecting(Self.aula))
        }
    }

    @Test("the simulator, like bluetoothd: Disconnect of an untrusted one turns auto-connection off until Connect")
    func blueZKeepsUntrustedKeyboardAway() async throws {
        var untrusted = Self.advertisingAula
        untrusted.trusted = false
        try await withFirmwareDaemon(devices: [untrusted]) { daemon in
            let connection = try await BusConnection.connect(to: daemon.bus.busAddress)
            defer { Task { await connection.close() } }
            let path = try #require(await daemon.bluez.path(of: Self.aula))
            let device = DBusProxy(
                connection: connection, destination: BlueZ.service, path: path, interface: BlueZ.deviceInterface)
            #expect(await daemon.bluez.autoConnects(Self.aula))
            try await device.call(MemberName("Disconnect"))
            #expect(await !daemon.bluez.autoConnects(Self.aula))
            try await device.setProperty(MemberName("Trusted"), to: .boolean(true))
            #expect(await !daemon.bluez.autoConnects(Self.aula))
            try await device.call(MemberName("Connect"))
            #expect(await daemon.bluez.autoConnects(Self.aula))
        }
    }

    @Test("kblink disconnect: disconnected, still trusted, no auto-connection until kblink connect; it says so")
    func disconnectStaysAway() async throws {
        try await withFirmwareDaemon(devices: [Self.advertisingAula]) { daemon in
            let result = try await daemon.kblink(["disconnect", "Aula"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("stays disconnected until 'kblink connect'"))
            let device = try #require(await daemon.bluez.device(Self.aula))
            #expect(device.connected == false)
            #expect(device.trusted == true)
            #expect(await !daemon.bluez.autoConnects(Self.aula))

            let client = try await KBlinkClient.connect(to: daemon.bus.busAddress)
            defer { Task { await client.close() } }
            #expect(
                try await eventually {
                    let keyboard = try await client.keyboard(matching: Self.aula.description)
                    return !keyboard.connected && keyboard.trusted
                })

            #expect(try await daemon.kblink(["connect", "Aula"]).status == 0)
            #expect(await daemon.bluez.device(Self.aula)?.connected == true)
            #expect(await daemon.bluez.autoConnects(Self.aula))
            #expect(
                try await eventually {
                    let keyboard = try await client.keyboard(matching: Self.aula.description)
                    let attached = try await client.status().hardwareKeyboardAttached
                    return keyboard.connected && attached
                })
        }
    }

    @Test("an untrusted keyboard is disconnected and stays untrusted")
    func disconnectUntrusted() async throws {
        var device = Self.advertisingAula
        device.trusted = false
        try await withFirmwareDaemon(devices: [device]) { daemon in
            let result = try await daemon.kblink(["disconnect", "Aula"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(await daemon.bluez.device(Self.aula)?.connected == false)
            #expect(await daemon.bluez.device(Self.aula)?.trusted == false)
            #expect(await !daemon.bluez.autoConnects(Self.aula))
        }
    }
}

/// bluetoothd 5.66 can connect a device without announcing `Connected` (found by the real-stack rig): kblinkd
/// takes `ServicesResolved` turning true as the connection.
@Suite("A connection BlueZ does not announce", .serialized)
struct UnannouncedConnectionTests {
    @Test("kblink connect to a keyboard whose Connected never changes visibly: kblinkd says connected, attached")
    func unannouncedConnect() async throws {
        var aula = SimulatedDevice.aulaF87
        aula.connected = false
        let address = aula.address
        try await withFirmwareDaemon(devices: [aula]) { daemon in
            await daemon.bluez.setConnectsWithoutAnnouncing(address, true)
            let client = try await KBlinkClient.connect(to: daemon.bus.busAddress)
            defer { Task { await client.close() } }
            #expect(try await client.status().hardwareKeyboardAttached == false)
            let result = try await daemon.kblink(["connect", "Aula"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(
                try await eventually {
                    let keyboard = try await client.keyboard(matching: address.description)
                    let attached = try await client.status().hardwareKeyboardAttached
                    return keyboard.connected && attached
                })
        }
    }
}
