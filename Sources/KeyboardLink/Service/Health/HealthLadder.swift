import KBlinkAPI

/// The health of one keyboard and its healing ladder, as a pure state machine: it is told what BlueZ and the input
/// devices show (``observe(_:now:)``), when a step it asked for returned (``stepReturned(_:error:now:)``), when its
/// ``wakeAt`` came (``timerFired(now:)``) and when the user acted (``cancel(_:)``), and answers with the step to run
/// and what to record. Time is given, never read: the driver (`KeyboardRegistry+Health.swift`) owns the clock and
/// the timers, so every path here is tested without waiting.
///
/// An episode starts when a keyboard's link comes up without its input device. After ``HealthSettings/deadline``
/// the steps run one at a time, each checked (the input device appears within the deadline after it returned),
/// with ``HealthSettings/backoff`` doubled between them, until the device appears (working) or
/// ``HealthSettings/budget`` steps ran (failed; nothing more is tried until the link goes down and up again). The
/// link going down ends an episode, except for the disconnection a step caused (reconnect, power cycle): from the
/// step's call (``stepCalls(_:)``; the driver may hold a step back first, while a firmware session holds the
/// keyboard) until the keyboard is seen connected again after it, whenever BlueZ's signals of it are seen
/// (on a loaded machine they can be seen after the step's reply, and after the check that followed it), up to
/// ``ownDisconnectionGrace`` after the step returned. bluetoothd may not announce it at all: it batches property
/// changes, and a link that went down and straight back up shows as `ServicesResolved` false and true with
/// `Connected` true throughout (which counts as the step's disconnection too), or as nothing.
struct HealthLadder: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// Where the keyboard is.
    enum Phase: Sendable, Equatable {
        /// Not connected.
        case down
        /// Connected, its link not up yet (services being resolved).
        case connecting
        /// Link up, not paired: being paired (a passkey can take the user a while), or a keyboard that bonds only
        /// later. Its input device follows the bond, so the deadline starts once it is paired; until then nothing
        /// is healed, and no step ends the link a pairing runs on.
        case unpaired
        /// Link up without an input device, until the deadline.
        case waiting(until: Instant)
        /// The input device exists (or input devices are not watched).
        case working
        /// A step was asked for: its call is in flight, or about to be made.
        case running(HealStep)
        /// A step returned; its effect is awaited until the deadline.
        case checking(HealStep, until: Instant)
        /// Between two steps.
        case backingOff(until: Instant)
        /// The budget is spent: the reason and what to do.
        case failed(String)
        /// The user acted (disconnect, forget, pairing): no healing until the link goes down.
        case canceled(String)
        /// The computer is going to sleep (logind's `PrepareForSleep`): nothing is tried until it resumed.
        case suspended
    }

    /// A step that ended, for `Heals` and the journal.
    struct StepEnd: Sendable, Equatable {
        var step: HealStep
        /// `healed`, `no input device`, or BlueZ's error.
        var outcome: String
    }

    /// What the driver does after a transition.
    struct Output: Sendable, Equatable {
        /// The step to run now; report its end with ``stepReturned(_:error:now:)``.
        var run: HealStep?
        /// Steps that ended.
        var ended: [StepEnd] = []
        /// The time from the link coming up to the input device existing, when it just appeared.
        var reconnectTime: Duration?
        /// Lines for the journal: one per step, and one when the keyboard failed.
        var journal: [String] = []
    }

    /// Why the user's action canceled healing.
    enum Cancellation: Sendable, Equatable {
        case disconnect, forget, pairing

        var words: String {
            switch self {
            case .disconnect: "kblink disconnect"
            case .forget: "kblink forget"
            case .pairing: "a pairing"
            }
        }
    }

    var settings: HealthSettings
    private(set) var phase: Phase = .down
    /// Steps run in this episode.
    private(set) var stepsTaken = 0
    private var lastStep: HealStep?
    private var linkUpSince: Instant?
    private var disconnectedByUser = false
    /// Steps that disconnect the keyboard (reconnect, power cycle) whose disconnection was not seen yet: BlueZ's
    /// signals come in order, so the next disconnections seen are theirs, one each.
    private(set) var ownDisconnectionsAhead = 0
    /// Seen disconnected by a step, not yet connected again.
    private(set) var disconnectedByStep = false
    /// When the disconnections ahead stop being expected; nil while a step that disconnects runs.
    private var ownDisconnectionsExpire: Instant?

    /// How long after a step returned its disconnection, not seen yet, is still expected: longer than BlueZ's
    /// signals ever lag behind its replies, short enough that the user's own disconnection soon after a heal counts.
    static let ownDisconnectionGrace: Duration = .seconds(30)
    private var last = HealthObservation(
        connected: false, linkUp: false, hasInputDevice: false, inputDevicesWatched: false, paired: false,
        trusted: false)

    init(settings: HealthSettings) {
        self.settings = settings
    }

    /// The steps in the order they run; the last one repeats while the budget lasts. An LE keyboard has no
    /// connect-profile step: bluetoothd sends `ConnectProfile` over BR/EDR, where it fails at once for it.
    var ladder: [HealStep] {
        (last.lowEnergy ? [] : [.connectProfile]) + [.reconnect]
            + (settings.powerCycleAdapter ? [.powerCycleAdapter] : [])
    }

    /// When ``timerFired(now:)`` must be called; nil: no timer.
    var wakeAt: Instant? {
        switch phase {
        case .waiting(let until), .checking(_, let until), .backingOff(let until): until
        default: nil
        }
    }

    /// The `Health` property.
    var health: KeyboardHealth {
        switch phase {
        case .down:
            (last.paired && last.trusted && !disconnectedByUser) ? .asleep : .disconnected
        case .connecting, .unpaired, .waiting, .canceled: .waiting
        case .suspended: last.connected ? .working : (last.paired && last.trusted ? .asleep : .disconnected)
        case .working: .working
        case .running, .checking, .backingOff: .healing
        case .failed: .failed
        }
    }

    /// The `HealthDetail` property: the step being tried, or the reason and what to do.
    var detail: String {
        let step = "step \(stepsTaken) of \(settings.budget)"
        switch phase {
        case .down:
            if disconnectedByUser { return "disconnected with 'kblink disconnect'; 'kblink connect' brings it back" }
            return health == .asleep
                ? "not connected; it connects again by itself at a key press" : "not connected"
        case .connecting: return "connected; its services are being resolved"
        case .unpaired: return "connected, not paired yet; its input device is expected once it is paired"
        case .waiting:
            return "connected; waiting up to \(Self.words(settings.deadline)) for its input device"
        case .working: return last.inputDevicesWatched || !last.connected ? "" : "input devices are not watched"
        case .running(let heal): return "no input device: \(heal.doing) (\(step))"
        case .checking(let heal, _): return "no input device: \(heal.doing) (\(step)); waiting for the input device"
        case .backingOff:
            return "no input device after \(lastStep?.doing ?? "waiting") (\(step)); trying again shortly"
        case .failed(let reason): return reason
        case .suspended: return "the computer is going to sleep; it is expected back after the resume"
        case .canceled(let reason): return "healing canceled by \(reason); it starts again when the keyboard reconnects"
        }
    }

    // MARK: Transitions

    /// BlueZ or the input devices changed.
    mutating func observe(_ observation: HealthObservation, now: Instant) -> Output {
        last = observation
        var output = Output()
        guard observation.connected else {
            // A step's own disconnection (seen again at each update until it is connected again).
            if disconnectedByStep { return output }
            if expectsOwnDisconnection(now: now) {
                ownDisconnectionsAhead -= 1
                disconnectedByStep = true
                return output
            }
            phase = .down
            endEpisode()
            return output
        }
        if observation.linkUp {
            disconnectedByStep = false
        } else if !disconnectedByStep && expectsOwnDisconnection(now: now) {
            // Connected, its services not resolved: the link went down and straight back up.
            ownDisconnectionsAhead -= 1
            disconnectedByStep = true
        }
        // Connected again after being down: whatever the user did before is over (kblink connect, or a key press
        // after BlueZ's auto-connection came back).
        if phase == .down { disconnectedByUser = false }
        guard observation.inputDevicesWatched else {
            phase = .working
            return output
        }
        guard observation.linkUp else {
            if phase == .down { phase = .connecting }
            return output
        }
        if linkUpSince == nil { linkUpSince = now }
        if observation.hasInputDevice {
            guard phase != .working else { return output }
            if case .canceled = phase {
            } else if let since = linkUpSince {
                output.reconnectTime = now - since
            }
            switch phase {
            case .running(let step), .checking(let step, _):
                output.ended.append(StepEnd(step: step, outcome: "healed"))
                output.journal.append("\(step.rawValue): healed, its input device exists (step \(stepsTaken))")
            case .backingOff, .failed:
                output.journal.append("its input device appeared after \(stepsTaken) healing step(s)")
            default: break
            }
            phase = .working
            endEpisode()
            return output
        }
        guard observation.paired else {
            switch phase {
            case .down, .connecting, .waiting, .working: phase = .unpaired
            default: break
            }
            return output
        }
        switch phase {
        case .down, .connecting:
            phase = .waiting(until: now + settings.deadline)
        case .unpaired:
            // Paired now: the deadline (and the reconnect time) starts from the bond.
            linkUpSince = now
            phase = .waiting(until: now + settings.deadline)
        case .working:
            // The input device went away while connected: a new episode.
            linkUpSince = now
            phase = .waiting(until: now + settings.deadline)
        case .waiting, .running, .checking, .backingOff, .failed, .canceled, .suspended:
            break
        }
        return output
    }

    /// The step asked for is being called now (BlueZ's answer comes to ``stepReturned(_:error:now:)``): from here, the
    /// next disconnection seen is its own. Before its call, the step may wait (for a push to end), and a
    /// disconnection meanwhile is a real one.
    mutating func stepCalls(_ step: HealStep) {
        guard phase == .running(step), step.disconnects else { return }
        ownDisconnectionsAhead += 1
        ownDisconnectionsExpire = nil
    }

    /// The step asked for returned; `error` is BlueZ's answer when it failed.
    mutating func stepReturned(_ step: HealStep, error: String?, now: Instant) -> Output {
        guard phase == .running(step) else { return Output() }
        guard let error else {
            // BlueZ answered after connecting it again: a disconnection not seen yet is the step's own, on its way.
            if step.disconnects { ownDisconnectionsExpire = now + Self.ownDisconnectionGrace }
            phase = .checking(step, until: now + settings.deadline)
            return Output()
        }
        // Whether it disconnected the keyboard is not known, and it was not connected again: its disconnection is
        // a real one. Not seen yet, it is the last one ahead (signals come in order); seen, it is the current one.
        if step.disconnects {
            if ownDisconnectionsAhead > 0 { ownDisconnectionsAhead -= 1 } else { disconnectedByStep = false }
        }
        var output = Output(ended: [StepEnd(step: step, outcome: error)])
        output.journal.append("\(step.rawValue): \(error) (step \(stepsTaken) of \(settings.budget))")
        next(now: now, into: &output)
        return output
    }

    /// ``wakeAt`` came.
    mutating func timerFired(now: Instant) -> Output {
        guard let wake = wakeAt, now >= wake else { return Output() }
        var output = Output()
        switch phase {
        case .waiting:
            output.journal.append(
                "connected for \(Self.words(settings.deadline)) without an input device; healing it")
            start(now: now, into: &output)
        case .checking(let step, _):
            output.ended.append(StepEnd(step: step, outcome: "no input device"))
            output.journal.append(
                "\(step.rawValue): no input device \(Self.words(settings.deadline)) after it (step \(stepsTaken) of "
                    + "\(settings.budget))")
            // Seen disconnected by the step and not yet connected again: BlueZ said it connected it, and the
            // signal saying so is on its way.
            guard last.connected || disconnectedByStep || expectsOwnDisconnection(now: now) else {
                phase = .down
                endEpisode()
                return output
            }
            next(now: now, into: &output)
        case .backingOff:
            start(now: now, into: &output)
        default:
            break
        }
        return output
    }

    /// The user disconnected or forgot the keyboard, or a pairing of it started: nothing more is tried until its
    /// link goes down and up again.
    mutating func cancel(_ cancellation: Cancellation) -> Output {
        var output = Output()
        switch phase {
        case .running, .checking, .backingOff, .waiting:
            output.journal.append("healing canceled by \(cancellation.words)")
        default: break
        }
        if cancellation == .disconnect { disconnectedByUser = true }
        forgetOwnDisconnections()
        phase = last.connected ? .canceled(cancellation.words) : .down
        endEpisode()
        return output
    }

    /// The computer is going to sleep: whatever runs stops, nothing more is tried until ``resume()``.
    mutating func suspend() -> Output {
        var output = Output()
        switch phase {
        case .running, .checking, .backingOff, .waiting:
            output.journal.append("healing paused: the computer is going to sleep")
        default: break
        }
        phase = .suspended
        endEpisode()
        forgetOwnDisconnections()
        return output
    }

    /// Takes in what BlueZ and the input devices show without acting on it (while the computer sleeps).
    mutating func note(_ observation: HealthObservation) {
        last = observation
    }

    /// The computer resumed: a keyboard that was connected is expected back, with a whole budget (a failed one
    /// too); the next ``observe(_:now:)`` says where it is.
    mutating func resume() {
        phase = .down
        endEpisode()
        forgetOwnDisconnections()
    }

    /// The user acted or the computer slept: a disconnection seen from now on is a real one.
    private mutating func forgetOwnDisconnections() {
        ownDisconnectionsAhead = 0
        disconnectedByStep = false
        ownDisconnectionsExpire = nil
    }

    /// Whether the next disconnection seen is a step's own; forgets those not seen within the grace.
    private mutating func expectsOwnDisconnection(now: Instant) -> Bool {
        if let expire = ownDisconnectionsExpire, now >= expire { forgetOwnDisconnections() }
        return ownDisconnectionsAhead > 0
    }

    private mutating func endEpisode() {
        stepsTaken = 0
        lastStep = nil
        linkUpSince = nil
    }

    /// After a step that did not heal: the next one after the backoff, or failed.
    private mutating func next(now: Instant, into output: inout Output) {
        guard stepsTaken < settings.budget else {
            fail(into: &output)
            return
        }
        let factor = 1 << min(max(stepsTaken - 1, 0), 16)
        phase = .backingOff(until: now + settings.backoff * factor)
    }

    private mutating func start(now: Instant, into output: inout Output) {
        guard stepsTaken < settings.budget else {
            fail(into: &output)
            return
        }
        let steps = ladder
        let step = steps[min(stepsTaken, steps.count - 1)]
        stepsTaken += 1
        lastStep = step
        phase = .running(step)
        output.run = step
    }

    private mutating func fail(into output: inout Output) {
        let tried =
            stepsTaken == 0
            ? "no healing step is allowed ([Health] Budget = 0)"
            : "\(stepsTaken) healing "
                + "step(s) (the last: \(lastStep?.doing ?? "none"))"
        let reason =
            "BlueZ shows it connected but no input device was made for it, after \(tried); kblinkd stopped "
            + "trying. Switch the keyboard off and on, or forget it and pair it again ('kblink forget', then "
            + "'kblink pair'); see docs/health.md"
        phase = .failed(reason)
        output.journal.append("failed: \(reason)")
    }

    /// A duration in words: "10 s", "0.5 s".
    static func words(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        if milliseconds == 0 { return "\(seconds) s" }
        var fraction = String(milliseconds)
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction) s"
    }
}
