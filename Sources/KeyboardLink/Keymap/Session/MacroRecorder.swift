/// Turns key events from an input device into macro steps, with the same operation-log machinery as the edit
/// session: each finished step is an entry of `log`, so a step can be undone while recording, and the result
/// becomes one `EditOperation.recordMacro` in the session's log.
///
/// A key pressed and released with nothing in between is a tap; otherwise presses and releases stay apart.
/// Modifier presses around one tap become a chord (`ctrl+c`, see `Macro.normalized()`). The time between
/// keystrokes becomes a delay step, rounded to `delayRounding`; gaps shorter than `minimumDelay`, and gaps while a
/// key is held, are dropped. Autorepeat, `EV_SYN` and non-key events are ignored, as are keys kblink cannot send
/// (listed in `ignoredCodes`). Keys still held when recording stops are released at the end.
package struct MacroRecorder: Sendable {
    /// How delays are recorded.
    package struct Options: Sendable, Hashable {
        /// Gaps shorter than this (after rounding) are dropped, in milliseconds.
        package var minimumDelay: Int
        /// Delays are rounded to a multiple of this, in milliseconds (at least 1).
        package var delayRounding: Int
        /// Whether to record delays at all.
        package var recordsDelays: Bool

        /// Creates options; the defaults drop gaps under 50 ms and round to 10 ms.
        package init(minimumDelay: Int = 50, delayRounding: Int = 10, recordsDelays: Bool = true) {
            self.minimumDelay = minimumDelay
            self.delayRounding = max(1, delayRounding)
            self.recordsDelays = recordsDelays
        }
    }

    /// The recorded steps so far.
    package private(set) var log = OperationLog<MacroStep>()
    /// Evdev key codes that were pressed but have no HID usage kblink can send.
    package private(set) var ignoredCodes: [UInt16] = []
    private let options: Options
    private var held: [UInt16: HIDUsage] = [:]
    private var heldOrder: [UInt16] = []
    private var pending: (code: UInt16, usage: HIDUsage)?
    private var lastRelease: Int64?

    /// Starts an empty recording.
    package init(options: Options = Options()) {
        self.options = options
    }

    /// Feeds one event.
    package mutating func feed(_ event: EvdevEvent) {
        guard event.type == EvdevEvent.key else { return }
        switch event.value {
        case 1: keyDown(event)
        case 0: keyUp(event)
        default: return
        }
    }

    /// Feeds a run of raw `struct input_event` records.
    /// - Throws: `KeymapError.invalidInputEvents` for bytes that are not whole records; nothing is fed then.
    package mutating func feed(bytes: some Collection<UInt8>) throws(KeymapError) {
        for event in try EvdevEvent.decode(bytes) { feed(event) }
    }

    /// Undoes the last finished step (a key still held is not a step yet).
    package mutating func undoLastStep() {
        _ = log.undo()
    }

    /// The recorded macro in canonical form.
    /// - Throws: `KeymapError.invalidMacro` when nothing was recorded.
    package func macro() throws(KeymapError) -> Macro {
        var steps = Array(log.applied)
        if let pending { steps.append(.press(pending.usage)) }
        for code in heldOrder.reversed() {
            if let usage = held[code] { steps.append(.release(usage)) }
        }
        guard !steps.isEmpty else { throw .invalidMacro("nothing was recorded") }
        return try Macro(steps: steps).normalized()
    }

    /// The edit that stores the recording as a macro, for `KeymapEditSession.apply(_:)`.
    package func operation(named name: MacroName) throws(KeymapError) -> EditOperation {
        .recordMacro(name, try macro())
    }

    private mutating func keyDown(_ event: EvdevEvent) {
        guard held[event.code] == nil else { return }
        guard let usage = KeycodeTable.shared.usage(forEvdevCode: event.code),
            KeycodeTable.shared.qmkBasicCode(for: usage).map({ (0x04...0xFF).contains($0) }) == true
        else {
            if !ignoredCodes.contains(event.code) { ignoredCodes.append(event.code) }
            return
        }
        flushPending()
        if held.isEmpty, options.recordsDelays, let lastRelease {
            let gap = Int((event.time - lastRelease) / 1_000)
            let rounded = (gap + options.delayRounding / 2) / options.delayRounding * options.delayRounding
            if rounded >= options.minimumDelay && rounded > 0 {
                var remaining = rounded
                while remaining > 0 {
                    let chunk = min(remaining, Macro.maximumDelay)
                    log.append(.delay(milliseconds: chunk))
                    remaining -= chunk
                }
            }
        }
        held[event.code] = usage
        heldOrder.append(event.code)
        pending = (event.code, usage)
    }

    private mutating func keyUp(_ event: EvdevEvent) {
        guard let usage = held.removeValue(forKey: event.code) else { return }
        heldOrder.removeAll { $0 == event.code }
        if let pending, pending.code == event.code {
            log.append(.tap(KeyPress(usage)))
            self.pending = nil
        } else {
            flushPending()
            log.append(.release(usage))
        }
        if held.isEmpty { lastRelease = event.time }
    }

    private mutating func flushPending() {
        if let pending {
            log.append(.press(pending.usage))
            self.pending = nil
        }
    }
}
