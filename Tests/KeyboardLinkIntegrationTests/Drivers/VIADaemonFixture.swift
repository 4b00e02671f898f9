import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// A daemon whose VGN 98Pro (connected) reaches a simulated VIA keyboard through a socketpair instead of its hidraw
/// node: the set-up the VIA push, pull and macro tests share.
enum VIADaemonFixture {
    /// The VGN 98Pro, connected, with its layout and a simulated VIA keyboard for that layout's matrix served on a
    /// socketpair (the caller closes `transport`).
    static func connectedVGN98Pro(_ keyboard: (Int, Int) throws -> SimulatedVIAKeyboard) throws -> (
        device: SimulatedDevice, layout: PhysicalLayout, server: SimulatedVIAKeyboardServer,
        transport: VIASocketTransport
    ) {
        var device = SimulatedDevice.vgn98Pro
        device.connected = true
        let layout = try PhysicalLayout.builtIn("vgn-98pro")
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        let (server, transport) = try SimulatedVIAKeyboardServer.start(try keyboard(rows, columns))
        return (device, layout, server, transport)
    }

    /// Runs `body` with the daemon, its keymap client for the VGN 98Pro, the simulated keyboard's server, the
    /// client end of the socketpair (another VIA tool can speak on it too) and the layout.
    /// - Parameter keyboard: the simulated keyboard for the layout's matrix (rows, columns).
    static func run(
        keyboard: (Int, Int) throws -> SimulatedVIAKeyboard = { try SimulatedVIAKeyboard(rows: $0, columns: $1) },
        _ body: (DaemonHarness, KeymapClient, SimulatedVIAKeyboardServer, VIASocketTransport, PhysicalLayout)
            async throws -> Void
    ) async throws {
        let (device, layout, server, transport) = try connectedVGN98Pro(keyboard)
        defer { transport.close() }
        let address = device.address
        try await withDaemon(devices: [device]) { harness in
            await harness.service.pushes.setVIALinks(
                VIADriverLinks { wanted in
                    wanted.address == address ? .init(transport: transport, close: {}) : nil
                })
            // The links were set after the keyboard connected: read its keymap into the base now, as kblinkd does
            // when a keyboard with a driver connects.
            await harness.service.readKeymapBases()
            try await KeymapFixture.withKeymap(harness, address) { keymap in
                #expect(await eventually { (try? await harness.client().keyboards().first?.connected) == true })
                try await body(harness, keymap, server, transport, layout)
            }
        }
    }
}
