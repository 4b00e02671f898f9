import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// Shared pieces of the keymap integration tests: the simulated keyboards' keymap objects and error checks.
enum KeymapFixture {
    static let aula = SimulatedDevice.aulaF87.address
    static let vgn = SimulatedDevice.vgn98Pro.address

    /// Runs `body` with a client on the Aula F87's keymap (or another keyboard's), over its own connection.
    static func withKeymap<T>(
        _ harness: DaemonHarness, _ address: BluetoothAddress = aula, _ body: (KeymapClient) async throws -> T
    ) async throws -> T {
        let connection = try await harness.bus.connect()
        do {
            let result = try await body(KeymapClient(connection: connection, path: KBlink.keyboardPath(address)))
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Checks that a call fails with kblinkd's error of `code` and a message that contains every fragment.
    static func expectError(
        _ code: KBlinkError.Code, containing fragments: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("expected \(code), but the call succeeded", sourceLocation: sourceLocation)
        } catch let error as KBlinkError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            for fragment in fragments {
                #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Checks that a call fails with a standard D-Bus error (the binding's or the bus's, not kblinkd's) named `name`
    /// and a message that contains every fragment.
    static func expectBusError(
        _ name: ErrorName, containing fragments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("expected \(name.rawValue), but the call succeeded", sourceLocation: sourceLocation)
        } catch let error as DBusError {
            #expect(error.name == name, "\(error)", sourceLocation: sourceLocation)
            for fragment in fragments {
                #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("expected \(name.rawValue), got \(error)", sourceLocation: sourceLocation)
        }
    }

    /// A keyboard the simulated BlueZ knows, paired and connected, with any name.
    static func keyboard(_ name: String, address: String) -> SimulatedDevice {
        var device = SimulatedDevice.aulaF87
        device.address = BluetoothAddress(validating: address) ?? device.address
        device.name = name
        return device
    }

    /// A fresh state directory (removed by the caller).
    static func stateDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "kblink-keymap-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The profile file of a keyboard in a state directory.
    static func profilePath(_ stateDirectory: String, _ address: BluetoothAddress) -> String {
        stateDirectory + "/profiles/" + address.description.replacingOccurrences(of: ":", with: "_") + ".json"
    }
}
