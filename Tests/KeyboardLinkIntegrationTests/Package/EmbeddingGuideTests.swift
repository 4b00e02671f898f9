import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import Testing

/// The example of docs/embedding.md, run against kblinkd-demo: it names only what the embedders' products
/// (`KeyboardLinkClient`, `KBlinkAPI`, `KeyboardLinkDBus`) declare public, so that the guide cannot drift from them.
@Suite struct EmbeddingGuideTests {
    @Test func theClientListsKeyboardsAndCallsTheContract() async throws {
        try await DemoDaemon.run { demo in
            let bus = BusAddress.address(demo.address)  // an embedder passes .system

            // docs/embedding.md, "The client":
            let client = try await KBlinkClient.connect(to: bus)
            var lines: [String] = []
            for keyboard in try await client.keyboards() {
                lines.append("\(keyboard.alias) \(keyboard.address) \(keyboard.health.rawValue)")
            }
            let status = try await client.status()
            let layouts = try await client.manager.call(KBlinkContract.Manager.listLayouts)
            await client.close()

            #expect(lines.contains { $0.hasPrefix("Aula F87 ") && $0.hasSuffix(" working") }, "\(lines)")
            #expect(status.version == KBlink.version)
            #expect(layouts.isEmpty)
        }
    }

    @Test func aClientWithoutKblinkdSaysSo() async throws {
        let bus = try await TestBus()
        await #expect(throws: KBlinkClient.Failure.daemonNotRunning(bus: "given")) {
            _ = try await KBlinkClient.connect(to: bus.busAddress)
        }
    }
}
