import Glibc
import KeyboardLinkSimulator
import Testing

@testable import KeyboardLinkDrivers

@Suite("VIA client against a simulated keyboard over a socketpair")
struct VIAClientTests {
    private func connect(
        _ keyboard: SimulatedVIAKeyboard = .vgn98Pro(), timeoutMilliseconds: Int = 2_000
    ) throws -> (SimulatedVIAKeyboardServer, VIAClient, VIASocketTransport) {
        let (server, transport) = try SimulatedVIAKeyboardServer.start(
            keyboard, timeoutMilliseconds: timeoutMilliseconds)
        return (server, VIAClient(transport: transport), transport)
    }

    @Test("Protocol version, layer count, firmware version and macro geometry")
    func information() async throws {
        let (server, client, transport) = try connect()
        defer { transport.close() }
        #expect(try await client.protocolVersion() == 0x000B)
        #expect(try await client.layerCount() == 4)
        #expect(try await client.firmwareVersion() == 0x0001_0203)
        #expect(try await client.macroCount() == 16)
        #expect(try await client.macroBufferSize() == 1_024)
        #expect(server.keyboard.reportCount == 5)
    }

    @Test("Reading the whole keymap through the bulk buffer")
    func readKeymap() async throws {
        let keyboard = try SimulatedVIAKeyboard(layers: 3, rows: 6, columns: 17)
        let (server, client, transport) = try connect(keyboard)
        defer { transport.close() }
        let keymap = try await client.readKeymap(rows: 6, columns: 17)
        #expect(keymap == server.keyboard.keymap)
        #expect(keymap.keycode(at: VIAKeyPosition(layer: 0, row: 0, column: 1)) == 0x0005)
        #expect(keymap.keycode(at: VIAKeyPosition(layer: 2, row: 5, column: 16)) == 0x0001)
        // 3 x 6 x 17 keycodes = 612 bytes = 22 reports of 28 bytes, plus the layer count.
        #expect(server.keyboard.reportCount == 23)
    }

    @Test("Writing changed keycodes, one set_keycode each")
    func writeKeycodes() async throws {
        let (server, client, transport) = try connect()
        defer { transport.close() }
        let changes = [
            VIAKeycodeChange(position: VIAKeyPosition(layer: 0, row: 1, column: 2), keycode: 0x0029),
            VIAKeycodeChange(position: VIAKeyPosition(layer: 3, row: 5, column: 16), keycode: 0x5220),
        ]
        #expect(try await client.writeKeycodes(changes) == 2)
        let keyboard = server.keyboard
        #expect(keyboard.writeLog == changes.map { .keycode($0.position, $0.keycode) })
        #expect(keyboard.keymap.keycode(at: changes[0].position) == 0x0029)
        #expect(try await client.keycode(at: changes[1].position) == 0x5220)
    }

    @Test("A keymap push writes only what differs, and a second push writes nothing")
    func writeKeymap() async throws {
        let (server, client, transport) = try connect()
        defer { transport.close() }
        let old = try await client.readKeymap(rows: 6, columns: 17)
        var new = old
        for index in [3, 4, 9, 200, 205, 400] {
            try new.setKeycode(0x0050, at: new.position(ofIndex: index))
        }
        let written = try await client.writeKeymap(new, replacing: old)
        #expect(written == 3)
        #expect(server.keyboard.keymap == new)
        #expect(try await client.readKeymap(rows: 6, columns: 17) == new)
        #expect(try await client.writeKeymap(new, replacing: new) == 0)
    }

    @Test("The macro buffer is written with its last byte last, and reads back")
    func macroBuffer() async throws {
        let (server, client, transport) = try connect()
        defer { transport.close() }
        let contents = Array("hello".utf8) + [0] + [0x01, 0x01, 0x29] + [0]
        let written = try await client.writeMacroBuffer(contents)
        let keyboard = server.keyboard
        let macroWrites: [(offset: Int, bytes: [UInt8])] = keyboard.writeLog.compactMap {
            if case .macroBuffer(let offset, let bytes) = $0 { return (offset, bytes) }
            return nil
        }
        #expect(macroWrites.count == written)
        // First the busy marker, last the clear; nothing in between touches byte 1023.
        #expect(macroWrites.first?.offset == 1_023)
        #expect(macroWrites.first?.bytes == [0xFF])
        #expect(macroWrites.last?.offset == 1_023)
        #expect(macroWrites.last?.bytes == [0x00])
        for write in macroWrites.dropFirst().dropLast() {
            #expect(write.offset + write.bytes.count <= 1_023)
        }
        #expect(keyboard.playableMacro(0) == Array("hello".utf8))
        #expect(keyboard.playableMacro(1) == [0x01, 0x01, 0x29])
        let readBack = try await client.readMacroBuffer()
        #expect(readBack == contents + [UInt8](repeating: 0, count: 1_024 - contents.count))
        // Rewriting the same contents against what was read sends nothing.
        #expect(try await client.writeMacroBuffer(contents, replacing: readBack) == 0)
    }

    @Test("A link dropped mid-write leaves macros unplayable rather than half-written")
    func macroWriteInterrupted() async throws {
        // Reports: buffer size, busy marker, first chunk; then the link drops.
        let keyboard = try SimulatedVIAKeyboard(macroBufferSize: 256, faults: [.dropConnection(afterReports: 3)])
        let (server, client, transport) = try connect(keyboard)
        defer { transport.close() }
        await #expect(throws: VIATransportError.disconnected) {
            try await client.writeMacroBuffer(Array(repeating: 0x61, count: 100))
        }
        server.waitUntilStopped()
        #expect(server.keyboard.macroBuffer.last == 0xFF)
        #expect(server.keyboard.playableMacro(0) == nil)
    }

    @Test("Macros too big for the buffer are refused before any write")
    func macroTooBig() async throws {
        let keyboard = try SimulatedVIAKeyboard(macroBufferSize: 32)
        let (server, client, transport) = try connect(keyboard)
        defer { transport.close() }
        await #expect(throws: VIAClientError.macroBufferTooSmall(needed: 41, available: 32)) {
            try await client.writeMacroBuffer(Array(repeating: 0x61, count: 40))
        }
        #expect(server.keyboard.writeLog.isEmpty)
    }

    @Test("Unknown commands and values are answered with 0xFF")
    func unknownCommands() async throws {
        let (_, client, transport) = try connect()
        defer { transport.close() }
        await #expect(throws: VIAProtocolError.unsupportedCommand(.getKeyboardValue)) {
            try await client.keyboardValue(.switchMatrixState)
        }
        try await transport.send(VIAReport(validating: [0x07, 0x01] + [UInt8](repeating: 0, count: 30)))
        let reply = try await transport.receive()
        #expect(reply.bytes[0...1] == [0xFF, 0x01])
    }

    @Test("A write answered with an error is reported and not applied")
    func failedWrite() async throws {
        let keyboard = try SimulatedVIAKeyboard(faults: [.failWrite(call: 2)])
        let (server, client, transport) = try connect(keyboard)
        defer { transport.close() }
        let first = VIAKeycodeChange(position: VIAKeyPosition(layer: 1, row: 0, column: 0), keycode: 0x0004)
        let second = VIAKeycodeChange(position: VIAKeyPosition(layer: 1, row: 0, column: 1), keycode: 0x0005)
        await #expect(throws: VIAProtocolError.unsupportedCommand(.dynamicKeymapSetKeycode)) {
            try await client.writeKeycodes([first, second])
        }
        #expect(server.keyboard.keymap.keycode(at: first.position) == 0x0004)
        #expect(server.keyboard.keymap.keycode(at: second.position) == 0x0001)
    }

    @Test("A stale reply left by an earlier request is skipped by the echo check")
    func staleReply() async throws {
        let (_, client, transport) = try connect()
        defer { transport.close() }
        // A request whose reply nobody reads, as after a timeout.
        try await transport.send(try VIACommand.getLayerCount.report())
        #expect(try await client.protocolVersion() == 0x000B)
    }

    @Test("A dropped link is reported as disconnected")
    func droppedLink() async throws {
        let keyboard = try SimulatedVIAKeyboard(faults: [.dropConnection(afterReports: 1)])
        let (_, client, transport) = try connect(keyboard)
        defer { transport.close() }
        #expect(try await client.protocolVersion() == 0x000B)
        await #expect(throws: VIATransportError.disconnected) { try await client.layerCount() }
    }

    @Test("A keyboard that never answers times out")
    func timeout() async throws {
        let (transport, peer) = try VIASocketTransport.makePair(timeoutMilliseconds: 50)
        defer {
            transport.close()
            _ = Glibc.close(peer)
        }
        await #expect(throws: VIATransportError.timedOut(milliseconds: 50)) {
            try await VIAClient(transport: transport).protocolVersion()
        }
    }

    @Test("Operations after close fail cleanly")
    func closedTransport() async throws {
        let (server, client, transport) = try connect()
        transport.close()
        await #expect(throws: VIATransportError.closed) { try await client.protocolVersion() }
        server.waitUntilStopped()
    }
}
