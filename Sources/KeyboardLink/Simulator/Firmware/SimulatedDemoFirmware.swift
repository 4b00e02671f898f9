import KeyboardLinkBlueZ
import KeyboardLinkDrivers
import KeyboardLinkKeymap

/// The firmware behind the keyboards of `kblinkd --simulate`, so that `kblink keymap push` and `pull` work with no
/// hardware: ZMK Studio on the Aula F87, answered over the simulated GATT, and VIA on the VGN 98Pro, served on a
/// socketpair that the daemon's VIA driver uses instead of a hidraw node.
package struct SimulatedDemoFirmware: Sendable {
    /// The Aula F87's ZMK Studio firmware (unlocked, as if the unlock key had been pressed), with two physical
    /// layouts: the full one and one without the function row.
    package let studio: SimulatedStudioKeyboard
    /// The VGN 98Pro's VIA firmware.
    package let via: SimulatedVIAKeyboardServer
    /// Where the daemon's VIA driver finds the VGN 98Pro: give it to `KeyboardPushes.setVIALinks(_:)`.
    package let viaLinks: VIADriverLinks

    /// Attaches both keyboards' firmware to `bluez` (a `SimulatedBlueZ.demo` that has started).
    /// - Throws: `SimulatedDemoFirmwareError` when the Aula F87's GATT objects do not appear within `timeout`, or
    ///   the VIA socketpair cannot be made.
    /// - Parameters:
    ///   - studioLayers: the layers the Aula F87's ZMK Studio firmware holds.
    ///   - studioAvailableLayers: how many more layers it can add (`add_layer`).
    package static func start(
        on bluez: SimulatedBlueZ, studioLayers: Int = 5, studioAvailableLayers: Int = 0,
        timeout: Duration = .seconds(5)
    ) async throws -> SimulatedDemoFirmware {
        let aula = SimulatedStudioKeyboard.aulaF87Device.address
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while await bluez.gatt.profile(for: aula) == nil {
            guard clock.now < deadline else { throw SimulatedDemoFirmwareError.noGATT(aula) }
            try await Task.sleep(for: .milliseconds(10))
        }
        let studio = SimulatedStudioKeyboard(
            firmware: SimulatedStudioKeyboard.firmware(
                matching: try PhysicalLayout.builtIn("aula-f87"), layerCount: studioLayers,
                availableLayers: studioAvailableLayers, compactLayout: true),
            address: aula, gatt: bluez.gatt)
        await studio.attach()
        await studio.unlock()

        let vgn = SimulatedDevice.vgn98Pro.address
        let keyboard = try SimulatedVIAKeyboard.matching(try PhysicalLayout.builtIn("vgn-98pro"))
        let (server, transport) = try SimulatedVIAKeyboardServer.start(keyboard)
        let links = VIADriverLinks { wanted in
            // The daemon closes a link after each push; the socketpair lives as long as the demo, so closing is a
            // no-op here.
            wanted.address == vgn ? VIADriverLinks.Link(transport: transport, close: {}) : nil
        }
        return SimulatedDemoFirmware(studio: studio, via: server, viaLinks: links)
    }
}

/// Why the demo firmware could not start.
package enum SimulatedDemoFirmwareError: Error, Equatable, CustomStringConvertible {
    /// The device's GATT objects never appeared on the simulated bus.
    case noGATT(BluetoothAddress)

    package var description: String {
        switch self {
        case .noGATT(let address): "the simulated \(address) exported no GATT services; is it connected?"
        }
    }
}
