import KBlinkAPI
import KeyboardLinkClient
import Testing

@testable import KeyboardLinkCommandLine

/// `kblink status` in words: one line per fact, however many keyboards are attached.
@Suite("kblink status text")
struct StatusTextTests {
    private static func status(attached count: Int) -> StatusResult {
        var status = ManagerStatus(properties: [:])
        status.version = "1.0"
        status.blueZRunning = true
        status.bluetoothAvailable = true
        status.hardwareKeyboardAttached = count > 0
        status.hardwareKeyboards = (0..<count).map {
            .init(source: "bluetooth", id: "AA:BB:CC:00:00:0\($0)", name: "Keyboard \($0)")
        }
        let health = KeyboardHealthSummary(counts: ["working": UInt32(count)], needingAttention: [])
        return StatusResult(status, health: health, bus: "system")
    }

    private static func text(_ result: StatusResult) -> [Substring] {
        let capture = CommandIO.Capture()
        result.writeText(to: Output(json: false, color: false, io: .capturing(into: capture)))
        return capture.standardOutput.split(separator: "\n")
    }

    @Test("a few attached keyboards are all named")
    func fewNamed() {
        let lines = Self.text(Self.status(attached: 3))
        #expect(
            lines.contains(
                "Hardware keyboard:  attached — Keyboard 0 (bluetooth AA:BB:CC:00:00:00), Keyboard 1 (bluetooth "
                    + "AA:BB:CC:00:00:01), Keyboard 2 (bluetooth AA:BB:CC:00:00:02)"), "\(lines)")
    }

    @Test("many attached keyboards: the first three named, the rest counted, on one line")
    func manyCounted() {
        let lines = Self.text(Self.status(attached: 9))
        let attached = lines.filter { $0.hasPrefix("Hardware keyboard:") }
        #expect(attached.count == 1, "\(lines)")
        #expect(
            attached.first?.hasSuffix(
                "Keyboard 2 (bluetooth AA:BB:CC:00:00:02) and 6 more ('kblink status --json' lists them)") == true,
            "\(lines)")
        #expect(attached.first?.contains("Keyboard 3") == false, "\(lines)")
        #expect(lines.count == 4, "\(lines)")
    }

    @Test("no keyboard attached")
    func none() {
        #expect(Self.text(Self.status(attached: 0)).contains("Hardware keyboard:  none attached"))
    }
}
