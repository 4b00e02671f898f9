import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The GATT client against the simulated BlueZ on a private bus: discovery, reads, writes, notifications, errors.
@Suite("GATT client over D-Bus", .serialized)
struct GATTClientTests {
    static let corne = SimulatedDevice.corneSplit.address

    /// A keyboard with one characteristic for writes and long reads, besides a Battery Service.
    static var tester: SimulatedDevice {
        var device = SimulatedDevice.corneSplit
        device.gatt = SimulatedGATTProfile(services: [
            SimulatedGATTService(
                uuid: BluetoothUUID(uint16: 0xFFF0),
                characteristics: [
                    SimulatedGATTCharacteristic(
                        uuid: BluetoothUUID(uint16: 0xFFF1), value: Array(0..<60), flags: [.read],
                        readChunkLimit: 19),
                    SimulatedGATTCharacteristic(
                        uuid: BluetoothUUID(uint16: 0xFFF2), value: [], flags: [.write, .indicate]),
                ]),
            SimulatedGATTProfile.battery(level: 77),
        ])
        return device
    }

    /// Runs `body` with a simulated BlueZ holding `devices`, a connection and a started model.
    func withGATT<T>(
        _ devices: [SimulatedDevice], _ body: (SimulatedBlueZ, GATTClient) async throws -> T
    ) async throws -> T {
        let bus = try await TestBus()
        let bluez = SimulatedBlueZ(bus: bus.busAddress, devices: devices)
        try await bluez.start()
        let connection = try await bus.connect()
        let model = BlueZModel(connection: connection)
        try await model.start()
        let device = try #require(await bluez.path(of: devices[0].address))
        let client = GATTClient(connection: connection, model: model, device: device)
        do {
            let result = try await body(bluez, client)
            await model.stop()
            await connection.close()
            await bluez.kill()
            return result
        } catch {
            await model.stop()
            await connection.close()
            await bluez.kill()
            throw error
        }
    }

    @Test("the database lists services, characteristics and descriptors in handle order")
    func database() async throws {
        try await withGATT([.corneSplit]) { _, client in
            try await client.waitUntilServicesResolved()
            let database = await client.database()
            #expect(database.services.map(\.uuid) == [.deviceInformation, .batteryService, .batteryService])
            #expect(database.characteristics.count == 9)
            let information = try #require(database.services(.deviceInformation).first)
            #expect(
                database.characteristics(of: information).map(\.uuid) == [
                    .manufacturerName, .modelNumber, .serialNumber, .firmwareRevision, .hardwareRevision,
                    .softwareRevision, .pnpID,
                ])
            let levels = database.characteristics(.batteryLevel)
            #expect(levels.count == 2)
            #expect(levels.allSatisfy { $0.flags == [.read, .notify] })
            #expect(
                levels.map { database.descriptors(of: $0).map(\.uuid) } == [
                    [.characteristicUserDescription], [.characteristicUserDescription],
                ])
            #expect(
                database.characteristic(.serialNumber, inService: .deviceInformation)?.path.lastElement == "char0015")
        }
    }

    @Test("reads: whole values, from an offset, descriptors, and past the end")
    func reads() async throws {
        try await withGATT([.corneSplit]) { _, client in
            try await client.waitUntilServicesResolved()
            let database = await client.database()
            let serial = try #require(database.characteristics(.serialNumber).first)
            #expect(try await client.read(serial) == Array("5E1F0C2A9B3D".utf8))
            #expect(try await client.read(serial, offset: 4) == Array("0C2A9B3D".utf8))
            let right = try #require(database.characteristics(.batteryLevel).last)
            #expect(try await client.read(right) == [75])
            let label = try #require(database.descriptor(.characteristicUserDescription, of: right))
            #expect(try await client.read(label) == Array("Right".utf8))
            await #expect(throws: GATTError.self) { try await client.read(serial, offset: 200) }
            do {
                _ = try await client.read(serial, offset: 200)
            } catch let error as GATTError {
                #expect(error.kind == .invalidOffset)
            }
        }
    }

    @Test("a long value served one chunk per read is read whole")
    func longRead() async throws {
        try await withGATT([Self.tester]) { bluez, client in
            try await client.waitUntilServicesResolved()
            let long = try #require(await client.database().characteristics(BluetoothUUID(uint16: 0xFFF1)).first)
            #expect(long.mtu == 20)
            #expect(try await client.read(long) == Array(0..<19))
            await bluez.gatt.resetStatistics(for: Self.corne)
            #expect(try await client.readLong(long) == Array(0..<60))
            #expect(await bluez.gatt.statistics(for: Self.corne).reads == 4)
        }
    }

    @Test("NotPermitted and InProgress are mapped; InProgress is retried, within bounds")
    func errors() async throws {
        var corne = SimulatedDevice.corneSplit
        corne.gatt?.faults = SimulatedGATTFaults(inProgressAnswers: 2, notPermitted: [.serialNumber])
        try await withGATT([corne]) { bluez, client in
            try await client.waitUntilServicesResolved()
            let database = await client.database()
            let model = try #require(database.characteristics(.modelNumber).first)
            #expect(try await client.read(model) == Array("Corne".utf8))
            let serial = try #require(database.characteristics(.serialNumber).first)
            do {
                _ = try await client.read(serial)
                Issue.record("the read succeeded")
            } catch let error as GATTError {
                #expect(error.kind == .notPermitted)
                #expect(error.description.contains("the keyboard does not allow this"))
            }
            await bluez.gatt.setFaults(SimulatedGATTFaults(inProgressAnswers: 10), for: Self.corne)
            var impatient = client
            impatient.retryPolicy = GATTRetryPolicy(retries: 2, initialBackoff: .milliseconds(1))
            do {
                _ = try await impatient.read(model)
                Issue.record("the read succeeded")
            } catch let error as GATTError {
                #expect(error.kind == .inProgress)
            }
            // 3 of the 10 InProgress answers were used by the 3 tries.
            #expect(await bluez.gatt.profile(for: Self.corne)?.faults.inProgressAnswers == 7)
        }
    }

    @Test("writes: request and command, refused without the flag")
    func writes() async throws {
        try await withGATT([Self.tester]) { bluez, client in
            try await client.waitUntilServicesResolved()
            let database = await client.database()
            let target = try #require(database.characteristics(BluetoothUUID(uint16: 0xFFF2)).first)
            try await client.write([1, 2, 3], to: target)
            try await client.write([9], to: target, offset: 3)
            do {
                try await client.write([4], to: target, type: .command)
                Issue.record("the write succeeded")
            } catch let error as GATTError {
                #expect(error.kind == .notPermitted)
            }
            let writes = await bluez.gatt.statistics(for: Self.corne).writes
            #expect(writes.map(\.value) == [[1, 2, 3], [9]])
            #expect(writes.map(\.type) == ["request", "request"])
            #expect(
                await bluez.gatt.profile(for: Self.corne)?.value(of: BluetoothUUID(uint16: 0xFFF2)) == [1, 2, 3, 9])
        }
    }

    @Test("notifications arrive in order (repeats too), stop sends StopNotify, and a disconnect ends them")
    func notifications() async throws {
        try await withGATT([.corneSplit]) { bluez, client in
            try await client.waitUntilServicesResolved()
            let right = try #require(await client.database().characteristics(.batteryLevel).last)
            let gatt = bluez.gatt
            do {
                let values = try await client.notifications(from: right)
                #expect(await gatt.isNotifying(.batteryLevel, occurrence: 1, for: Self.corne))
                await gatt.setValue([50], of: .batteryLevel, occurrence: 1, for: Self.corne)
                await gatt.setValue([50], of: .batteryLevel, occurrence: 1, for: Self.corne)
                await gatt.setValue([49], of: .batteryLevel, occurrence: 1, for: Self.corne)
                var received: [[UInt8]] = []
                for await value in values {
                    received.append(value)
                    if received.count == 3 { break }
                }
                #expect(received == [[50], [50], [49]])
                await values.stop()
            }
            // stop() returns once BlueZ answered StopNotify.
            #expect(await gatt.statistics(for: Self.corne).notifySessionsStopped == 1)
            #expect(await !gatt.isNotifying(.batteryLevel, occurrence: 1, for: Self.corne))

            let again = try await client.notifications(from: right)
            try await bluez.setConnected(Self.corne, false)
            var count = 0
            for await _ in again { count += 1 }
            #expect(count == 0)
            // The characteristic is gone: StopNotify fails at once, and stop() still returns.
            await again.stop()
            #expect(await gatt.statistics(for: Self.corne).notifySessionsStopped == 1)
        }
    }

    @Test("stop() twice, and the end of iteration, send one StopNotify")
    func stopOnce() async throws {
        try await withGATT([.corneSplit]) { bluez, client in
            try await client.waitUntilServicesResolved()
            let right = try #require(await client.database().characteristics(.batteryLevel).last)
            let gatt = bluez.gatt
            let values = try await client.notifications(from: right)
            await gatt.setValue([33], of: .batteryLevel, occurrence: 1, for: Self.corne)
            #expect(await first(of: values) == [33])
            await values.stop()
            await values.stop()
            let statistics = await gatt.statistics(for: Self.corne)
            #expect(statistics.stopNotifyCalls == 1)
            #expect(statistics.notifySessionsStopped == 1)
        }
    }

    @Test("notifications started again right after stop() arrive: the old StopNotify cannot end the new session")
    func restartAfterStop() async throws {
        try await withGATT([.corneSplit]) { bluez, client in
            try await client.waitUntilServicesResolved()
            let right = try #require(await client.database().characteristics(.batteryLevel).last)
            let gatt = bluez.gatt
            // bluetoothd keeps one session per client: a StopNotify answered after the next StartNotify would end
            // the new session too. A slow StopNotify opens that window wide.
            await gatt.setFaults(SimulatedGATTFaults(stopNotifyDelay: .milliseconds(100)), for: Self.corne)
            for round in 0..<3 {
                let values = try await client.notifications(from: right)
                await values.stop()
                let again = try await client.notifications(from: right)
                // The old session's StopNotify has been served (before stop() returned; without waiting for it,
                // only now, under the new session).
                #expect(
                    await eventually { await gatt.statistics(for: Self.corne).notifySessionsStopped == 2 * round + 1 })
                let level = UInt8(60 + round)
                await gatt.setValue([level], of: .batteryLevel, occurrence: 1, for: Self.corne)
                #expect(await first(of: again) == [level], "round \(round)")
                await again.stop()
            }
            #expect(await !gatt.isNotifying(.batteryLevel, occurrence: 1, for: Self.corne))
        }
    }

    @Test("a write answered with indications, as ZMK Studio's RPC does")
    func writeResponder() async throws {
        try await withGATT([Self.tester]) { bluez, client in
            try await client.waitUntilServicesResolved()
            let rpc = try #require(await client.database().characteristics(BluetoothUUID(uint16: 0xFFF2)).first)
            await bluez.gatt.setWriteResponder(for: Self.corne, characteristic: rpc.uuid) { request in
                [[0xAB] + request, [0xAD]]
            }
            let values = try await client.notifications(from: rpc)
            try await client.write([7, 8], to: rpc)
            var received: [[UInt8]] = []
            for await value in values {
                received.append(value)
                if received.count == 2 { break }
            }
            #expect(received == [[0xAB, 7, 8], [0xAD]])
        }
    }

    @Test("notifications of a characteristic that cannot notify are refused")
    func notifyNotSupported() async throws {
        try await withGATT([.corneSplit]) { _, client in
            try await client.waitUntilServicesResolved()
            let serial = try #require(await client.database().characteristics(.serialNumber).first)
            do {
                _ = try await client.notifications(from: serial)
                Issue.record("notifications started")
            } catch let error as GATTError {
                #expect(error.kind == .notSupported)
            }
        }
    }

    @Test("waiting for resolved services: returns once the keyboard connects, fails when it stays asleep")
    func waitForServices() async throws {
        var corne = SimulatedDevice.corneSplit
        corne.connected = false
        try await withGATT([corne]) { bluez, client in
            do {
                try await client.waitUntilServicesResolved(timeout: .seconds(30))
                Issue.record("resolved while asleep")
            } catch let error as GATTError {
                // At once, not after 30 s: this test would time out otherwise.
                #expect(error.kind == .notConnected)
            }
            do {
                try await client.waitUntilServicesResolved(timeout: .milliseconds(100), waitForConnection: true)
                Issue.record("resolved while asleep")
            } catch let error as GATTError {
                #expect(error.kind == .notConnected)
                #expect(error.message == "not connected after 0.1 seconds")
            }
            #expect(await client.database().services.isEmpty)
            async let waited: Void = client.waitUntilServicesResolved(timeout: .seconds(60), waitForConnection: true)
            try await Task.sleep(for: .milliseconds(50))
            try await bluez.setConnected(Self.corne, true)
            try await waited
            #expect(await client.database().services.count == 3)
            let serial = try #require(await client.database().characteristics(.serialNumber).first)
            try await bluez.setConnected(Self.corne, false)
            do {
                _ = try await client.read(serial)
                Issue.record("read after the disconnect")
            } catch let error as GATTError {
                #expect(error.meansDisconnected)
            }
            #expect(try await client.isDeviceConnected() == false)
        }
    }

    @Test("the firmware reader reads a keyboard without Device Information: just its battery, no failure")
    func readerWithoutDeviceInformation() async throws {
        var vgn = SimulatedDevice.vgn98Pro
        vgn.connected = true
        try await withGATT([vgn]) { _, client in
            let outcome = try await FirmwareReader(client: client).read(
                modalias: vgn.modalias, battery1Percentage: 60)
            #expect(outcome.readings.strings.isEmpty)
            #expect(outcome.readings.pnpID == nil)
            #expect(outcome.readings.batteryLevels == [RawBatteryLevel(value: [60])])
            #expect(outcome.failureNotes.isEmpty)
            #expect(outcome.batteryCharacteristics.map(\.part) == ["main"])
        }
    }

    @Test("the firmware reader fails as a whole when the keyboard disconnects during the reads")
    func readerDisconnect() async throws {
        var corne = SimulatedDevice.corneSplit
        corne.gatt?.faults = SimulatedGATTFaults(disconnectAtRead: 5)
        try await withGATT([corne]) { bluez, client in
            do {
                _ = try await FirmwareReader(client: client).read(modalias: nil, battery1Percentage: nil)
                Issue.record("the read succeeded")
            } catch let error as FirmwareReadError {
                #expect(error.kind == .disconnectedDuringRead)
            }
            #expect(await bluez.device(Self.corne)?.connected == false)
            #expect(await bluez.gatt.statistics(for: Self.corne).maximumConcurrentReads > 1)
        }
    }
}
