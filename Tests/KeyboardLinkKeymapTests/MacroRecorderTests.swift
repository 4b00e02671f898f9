import Testing

@testable import KeyboardLinkKeymap

@Suite("Recording macros from input events")
struct MacroRecorderTests {
    /// Builds a recorded event file the way the kernel writes `struct input_event` on 64-bit Linux.
    struct EventFile {
        var bytes: [UInt8] = []
        var time: Int64 = 1_700_000_000_000_000  // microseconds

        mutating func advance(milliseconds: Int64) { time += milliseconds * 1_000 }

        mutating func event(type: UInt16, code: UInt16, value: Int32) {
            func append(_ value: UInt64, _ count: Int) {
                for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
            }
            append(UInt64(time / 1_000_000), 8)
            append(UInt64(time % 1_000_000), 8)
            append(UInt64(type), 2)
            append(UInt64(code), 2)
            append(UInt64(UInt32(bitPattern: value)), 4)
        }

        /// A key event followed by the scan-code and SYN_REPORT events a real keyboard sends with it.
        mutating func key(_ code: UInt16, _ value: Int32) {
            event(type: 4, code: 4, value: 0x70000 + Int32(code))  // EV_MSC MSC_SCAN
            event(type: 1, code: code, value: value)
            event(type: 0, code: 0, value: 0)  // EV_SYN SYN_REPORT
        }
    }

    // evdev codes from linux/input-event-codes.h
    static let leftCtrl: UInt16 = 29, keyC: UInt16 = 46, keyH: UInt16 = 35, keyI: UInt16 = 23
    static let leftShift: UInt16 = 42, key1: UInt16 = 2, enter: UInt16 = 28

    @Test("a recorded event file becomes taps, chords and delays")
    func recording() throws {
        var file = EventFile()
        file.key(Self.leftCtrl, 1)
        file.advance(milliseconds: 120)  // held modifier: no delay recorded
        file.key(Self.keyC, 1)
        file.advance(milliseconds: 80)
        file.key(Self.keyC, 0)
        file.advance(milliseconds: 40)
        file.key(Self.leftCtrl, 0)
        file.advance(milliseconds: 253)  // rounds to 250
        file.key(Self.keyH, 1)
        file.advance(milliseconds: 600)
        file.key(Self.keyH, 2)  // autorepeat: ignored
        file.key(Self.keyH, 0)
        file.advance(milliseconds: 30)  // under 50 ms: dropped
        file.key(Self.keyI, 1)
        file.key(Self.keyI, 0)
        file.advance(milliseconds: 1_004)
        file.key(Self.leftShift, 1)
        file.key(Self.key1, 1)
        file.key(Self.key1, 0)
        file.key(Self.leftShift, 0)
        file.key(240, 1)  // KEY_UNKNOWN: nothing kblink can send
        file.key(240, 0)

        var recorder = MacroRecorder()
        try recorder.feed(bytes: file.bytes)
        let macro = try recorder.macro()
        #expect(macro.description == "ctrl+c, delay 250, h, i, delay 1000, shift+1")
        #expect(recorder.ignoredCodes == [240])
        #expect(try ViaMacroCodec.encode(macro).count == 9 + 6 + 3 + 3 + 7 + 9)
    }

    @Test("overlapping keys stay separate presses and releases; held keys are released at the end")
    func rollover() throws {
        var file = EventFile()
        file.key(Self.keyH, 1)
        file.key(Self.keyI, 1)
        file.key(Self.keyH, 0)
        file.key(Self.keyI, 0)
        file.key(Self.enter, 1)
        var recorder = MacroRecorder()
        try recorder.feed(bytes: file.bytes)
        #expect(
            try recorder.macro().description == "press h, press i, release h, release i, press enter, release enter")
    }

    @Test("a step can be undone while recording, and the recording lands in the session's log")
    func undoAndSession() throws {
        var file = EventFile()
        for code in [Self.keyH, Self.keyI, Self.enter] {
            file.key(code, 1)
            file.key(code, 0)
        }
        var recorder = MacroRecorder()
        try recorder.feed(bytes: file.bytes)
        recorder.undoLastStep()
        #expect(try recorder.macro().description == "h, i")

        var session = try KeymapEditSession(
            layout: try PhysicalLayout.builtIn("ansi-60"),
            base: Keymap(
                defaultsFor: try PhysicalLayout.builtIn("ansi-60")))
        let name = try MacroName("hi")
        try session.apply(try recorder.operation(named: name))
        #expect(session.macros[name]?.description == "h, i")
        #expect(session.canUndo)
        try session.undo()
        #expect(session.macros[name] == nil)
    }

    @Test("options: no delays, coarser rounding")
    func options() throws {
        var file = EventFile()
        file.key(Self.keyH, 1)
        file.key(Self.keyH, 0)
        file.advance(milliseconds: 137)
        file.key(Self.keyI, 1)
        file.key(Self.keyI, 0)
        var coarse = MacroRecorder(options: .init(minimumDelay: 100, delayRounding: 100))
        try coarse.feed(bytes: file.bytes)
        #expect(try coarse.macro().description == "h, delay 100, i")
        var none = MacroRecorder(options: .init(recordsDelays: false))
        try none.feed(bytes: file.bytes)
        #expect(try none.macro().description == "h, i")
    }

    @Test("bytes that are not whole records are refused; an empty recording is an error")
    func invalid() throws {
        var recorder = MacroRecorder()
        #expect(throws: KeymapError.self) { try recorder.feed(bytes: [UInt8](repeating: 0, count: 25)) }
        #expect(throws: KeymapError.invalidMacro("nothing was recorded")) { try recorder.macro() }
        var file = EventFile()
        file.event(type: 1, code: 30, value: 1)
        file.bytes[8] = 0xFF  // microseconds far beyond 999999
        file.bytes[9] = 0xFF
        file.bytes[10] = 0xFF
        #expect(throws: KeymapError.self) { try EvdevEvent.decode(file.bytes) }
    }

    @Test("decoding reads every field little-endian")
    func decoding() throws {
        var file = EventFile()
        file.time = 12 * 1_000_000 + 345_678
        file.event(type: 1, code: 0x1E, value: -2)
        let events = try EvdevEvent.decode(file.bytes)
        #expect(events == [EvdevEvent(seconds: 12, microseconds: 345_678, type: 1, code: 30, value: -2)])
    }
}
