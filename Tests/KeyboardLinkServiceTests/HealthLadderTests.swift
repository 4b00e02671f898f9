import Testing

@testable import KeyboardLinkService

/// The healing ladder as a pure state machine: every instant is given, nothing waits.
@Suite("HealthLadder")
struct HealthLadderTests {
    static let settings = HealthSettings(deadline: .seconds(10), budget: 3, backoff: .seconds(2))
    static let start = ContinuousClock.now

    static func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    static func seen(
        connected: Bool = true, linkUp: Bool = true, input: Bool = false, watched: Bool = true, paired: Bool = true,
        trusted: Bool = true, lowEnergy: Bool = false
    ) -> HealthObservation {
        HealthObservation(
            connected: connected, linkUp: linkUp && connected, hasInputDevice: input, inputDevicesWatched: watched,
            paired: paired, trusted: trusted, lowEnergy: lowEnergy)
    }

    @Test("a keyboard being paired is never healed: its deadline starts once it is paired")
    func unpairedWaitsForTheBond() {
        var ladder = HealthLadder(settings: Self.settings)
        // A pairing connected it and its services resolved; the user is still typing the passkey.
        _ = ladder.observe(Self.seen(paired: false, trusted: false, lowEnergy: true), now: Self.at(0))
        #expect(ladder.health == .waiting)
        #expect(ladder.detail.contains("not paired yet"))
        #expect(ladder.wakeAt == nil)
        #expect(ladder.timerFired(now: Self.at(60)).run == nil)
        #expect(ladder.observe(Self.seen(paired: false, lowEnergy: true), now: Self.at(61)).run == nil)
        // Paired at 70 s: the deadline runs from there.
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(70))
        #expect(ladder.wakeAt == Self.at(80))
        #expect(ladder.timerFired(now: Self.at(79)).run == nil)
        #expect(ladder.timerFired(now: Self.at(80)).run == .reconnect)
        ladder.stepCalls(.reconnect)
    }

    @Test("the reconnect time of a keyboard just paired runs from its bond, not from the link")
    func reconnectTimeFromTheBond() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(paired: false), now: Self.at(0))
        _ = ladder.observe(Self.seen(), now: Self.at(20))
        let output = ladder.observe(Self.seen(input: true), now: Self.at(21.5))
        #expect(ladder.health == .working)
        #expect(output.reconnectTime == .milliseconds(1500))
    }

    @Test("an input device at once: working, with the reconnect time measured from the link coming up")
    func atOnce() {
        var ladder = HealthLadder(settings: Self.settings)
        #expect(ladder.observe(Self.seen(), now: Self.at(0)).run == nil)
        #expect(ladder.health == .waiting)
        #expect(ladder.wakeAt == Self.at(10))
        let output = ladder.observe(Self.seen(input: true), now: Self.at(0.25))
        #expect(ladder.health == .working)
        #expect(output.reconnectTime == .milliseconds(250))
        #expect(output.ended.isEmpty)
        #expect(ladder.wakeAt == nil)
    }

    @Test("the deadline passes: connect-profile, then reconnect, then reconnect again; failed after the budget")
    func ladderToFailure() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(), now: Self.at(0))
        #expect(ladder.timerFired(now: Self.at(9)).run == nil)  // early: nothing
        var output = ladder.timerFired(now: Self.at(10))
        #expect(output.run == .connectProfile)
        #expect(ladder.health == .healing)
        #expect(ladder.detail.contains("step 1 of 3"))
        _ = ladder.stepReturned(.connectProfile, error: nil, now: Self.at(10.1))
        #expect(ladder.wakeAt == Self.at(20.1))
        output = ladder.timerFired(now: Self.at(20.1))
        #expect(output.ended == [.init(step: .connectProfile, outcome: "no input device")])
        #expect(output.journal.count == 1)
        #expect(ladder.wakeAt == Self.at(22.1))  // backoff 2 s after the first step
        #expect(ladder.timerFired(now: Self.at(22.1)).run == .reconnect)
        ladder.stepCalls(.reconnect)
        // The reconnect's own disconnection does not end the episode.
        _ = ladder.observe(Self.seen(connected: false), now: Self.at(22.2))
        #expect(ladder.health == .healing)
        _ = ladder.observe(Self.seen(), now: Self.at(22.5))
        _ = ladder.stepReturned(.reconnect, error: nil, now: Self.at(22.5))
        _ = ladder.timerFired(now: Self.at(32.5))
        #expect(ladder.wakeAt == Self.at(36.5))  // 4 s: doubled
        #expect(ladder.timerFired(now: Self.at(36.5)).run == .reconnect)
        ladder.stepCalls(.reconnect)
        _ = ladder.stepReturned(
            .reconnect, error: "org.bluez.Error.Failed: le-connection-abort-by-local", now: Self.at(37))
        #expect(ladder.health == .failed)
        #expect(ladder.detail.contains("forget it and pair it again"))
        #expect(ladder.wakeAt == nil)
        #expect(ladder.stepsTaken == 3)
        // Failed stays failed while connected: nothing more runs.
        #expect(ladder.observe(Self.seen(), now: Self.at(100)).run == nil)
        #expect(ladder.timerFired(now: Self.at(200)).run == nil)
        #expect(ladder.health == .failed)
        #expect(!ladder.health.countsAsAttached)
    }

    @Test("an LE keyboard skips connect-profile: the budget's steps are all reconnects")
    func lowEnergySkipsConnectProfile() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(0))
        #expect(ladder.ladder == [.reconnect])
        #expect(ladder.timerFired(now: Self.at(10)).run == .reconnect)
        ladder.stepCalls(.reconnect)
        #expect(ladder.detail.contains("disconnecting and connecting it again (step 1 of 3)"))
        _ = ladder.stepReturned(.reconnect, error: nil, now: Self.at(10.5))
        _ = ladder.timerFired(now: Self.at(20.5))
        #expect(ladder.timerFired(now: Self.at(22.5)).run == .reconnect)
        ladder.stepCalls(.reconnect)
        _ = ladder.stepReturned(.reconnect, error: nil, now: Self.at(23))
        let output = ladder.observe(Self.seen(input: true, lowEnergy: true), now: Self.at(24))
        #expect(output.ended == [.init(step: .reconnect, outcome: "healed")])
        #expect(output.journal == ["reconnect: healed, its input device exists (step 2)"])
        #expect(
            HealthLadder(settings: HealthSettings(powerCycleAdapter: true)).ladder == [
                .connectProfile, .reconnect, .powerCycleAdapter,
            ])
        var powerCycling = HealthLadder(settings: HealthSettings(powerCycleAdapter: true))
        _ = powerCycling.observe(Self.seen(lowEnergy: true), now: Self.at(0))
        #expect(powerCycling.ladder == [.reconnect, .powerCycleAdapter])
    }

    @Test("the input device appears after a step: working, the heal recorded, the budget restored")
    func healedByConnectProfile() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(), now: Self.at(0))
        _ = ladder.timerFired(now: Self.at(10))
        _ = ladder.stepReturned(.connectProfile, error: nil, now: Self.at(10.5))
        let output = ladder.observe(Self.seen(input: true), now: Self.at(11))
        #expect(ladder.health == .working)
        #expect(output.ended == [.init(step: .connectProfile, outcome: "healed")])
        #expect(output.reconnectTime == .seconds(11))
        #expect(ladder.stepsTaken == 0)
    }

    /// The LE ladder (reconnects only) run to failure with no BlueZ signal seen while it ran, as on a loaded machine
    /// where the signals lag behind the replies.
    static func failedWithSignalsBehind() -> HealthLadder {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(0))
        for (start, backoff) in [(10.0, 0.0), (22.1, 2.0), (36.2, 4.0)] {
            if backoff > 0 { #expect(ladder.timerFired(now: Self.at(start - backoff)).run == nil) }
            #expect(ladder.timerFired(now: Self.at(start)).run == .reconnect)
            ladder.stepCalls(.reconnect)
            _ = ladder.stepReturned(.reconnect, error: nil, now: Self.at(start + 0.1))
        }
        _ = ladder.timerFired(now: Self.at(46.3))
        return ladder
    }

    @Test("the steps' own disconnections, seen only after the keyboard failed: still failed, no new episode")
    func ownDisconnectionsSeenLate() {
        var ladder = Self.failedWithSignalsBehind()
        #expect(ladder.health == .failed)
        #expect(ladder.stepsTaken == 3)
        // Each reconnect's Connected false, then true, arrive now; an update of another object repeats a state.
        for (index, connected) in [false, false, true, false, true, true, false, false, true].enumerated() {
            let output = ladder.observe(
                Self.seen(connected: connected, lowEnergy: true), now: Self.at(47 + Double(index) / 10))
            #expect(output.run == nil)
            #expect(ladder.health == .failed)
            #expect(ladder.wakeAt == nil)
        }
        // A disconnection after them is a real one: the episode ends, and the next connection starts a new one.
        _ = ladder.observe(Self.seen(connected: false, lowEnergy: true), now: Self.at(60))
        #expect(ladder.health == .asleep)
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(70))
        #expect(ladder.health == .waiting)
        #expect(ladder.wakeAt == Self.at(80))
    }

    @Test("a check's deadline passes before the reconnect's Connected true is seen: the next step, not asleep")
    func checkDeadlineBeforeConnectedAgain() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(0))
        #expect(ladder.timerFired(now: Self.at(10)).run == .reconnect)
        ladder.stepCalls(.reconnect)
        _ = ladder.observe(Self.seen(connected: false, lowEnergy: true), now: Self.at(10.05))
        _ = ladder.stepReturned(.reconnect, error: nil, now: Self.at(10.1))
        _ = ladder.timerFired(now: Self.at(20.1))
        #expect(ladder.health == .healing)
        #expect(ladder.wakeAt == Self.at(22.1))
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(20.5))
        #expect(ladder.timerFired(now: Self.at(22.1)).run == .reconnect)
        ladder.stepCalls(.reconnect)
    }

    @Test("a reconnect BlueZ announced only as ServicesResolved false and true: a disconnection after it is real")
    func reconnectSeenAsServicesResolvedOnly() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(0))
        #expect(ladder.timerFired(now: Self.at(10)).run == .reconnect)
        ladder.stepCalls(.reconnect)
        // bluetoothd batches its property changes: Connected stayed true, the services were resolved again.
        _ = ladder.observe(Self.seen(linkUp: false, lowEnergy: true), now: Self.at(10.2))
        #expect(ladder.health == .healing)
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(10.8))
        _ = ladder.stepReturned(.reconnect, error: nil, now: Self.at(11))
        _ = ladder.observe(Self.seen(input: true, lowEnergy: true), now: Self.at(12))
        #expect(ladder.health == .working)
        // The adapter switched off a few seconds later: asleep, not taken for the step's disconnection.
        _ = ladder.observe(Self.seen(connected: false, lowEnergy: true), now: Self.at(15))
        #expect(ladder.health == .asleep)
    }

    @Test("a reconnect BlueZ did not announce at all: a disconnection after the grace is real")
    func reconnectNotAnnounced() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(0))
        #expect(ladder.timerFired(now: Self.at(10)).run == .reconnect)
        ladder.stepCalls(.reconnect)
        _ = ladder.stepReturned(.reconnect, error: nil, now: Self.at(11))
        _ = ladder.observe(Self.seen(input: true, lowEnergy: true), now: Self.at(12))
        #expect(ladder.health == .working)
        _ = ladder.observe(
            Self.seen(connected: false, lowEnergy: true), now: Self.at(11) + HealthLadder.ownDisconnectionGrace)
        #expect(ladder.health == .asleep)
    }

    @Test("a step held back before its call (a push holds the keyboard): a disconnection meanwhile is real")
    func disconnectionBeforeTheStepsCall() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(0))
        #expect(ladder.timerFired(now: Self.at(10)).run == .reconnect)
        // Not called yet: the keyboard switched off meanwhile ends the episode.
        _ = ladder.observe(Self.seen(connected: false, lowEnergy: true), now: Self.at(12))
        #expect(ladder.health == .asleep)
        #expect(ladder.stepsTaken == 0)
        // The step is not called now, and its return changes nothing.
        ladder.stepCalls(.reconnect)
        #expect(ladder.ownDisconnectionsAhead == 0)
        #expect(ladder.stepReturned(.reconnect, error: nil, now: Self.at(13)) == HealthLadder.Output())
        // The input device appeared while a step was held back: it is never called, and nothing stays expected.
        var healed = HealthLadder(settings: Self.settings)
        _ = healed.observe(Self.seen(lowEnergy: true), now: Self.at(0))
        #expect(healed.timerFired(now: Self.at(10)).run == .reconnect)
        _ = healed.observe(Self.seen(input: true, lowEnergy: true), now: Self.at(11))
        #expect(healed.health == .working)
        #expect(healed.ownDisconnectionsAhead == 0)
        _ = healed.observe(Self.seen(connected: false, lowEnergy: true), now: Self.at(100))
        #expect(healed.health == .asleep)
    }

    @Test("a reconnect that failed: the disconnection seen after it is real and ends the episode")
    func failedReconnectsDisconnectionIsReal() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(lowEnergy: true), now: Self.at(0))
        #expect(ladder.timerFired(now: Self.at(10)).run == .reconnect)
        ladder.stepCalls(.reconnect)
        _ = ladder.stepReturned(.reconnect, error: "org.bluez.Error.Failed: Page Timeout", now: Self.at(15))
        #expect(ladder.health == .healing)
        _ = ladder.observe(Self.seen(connected: false, lowEnergy: true), now: Self.at(15.1))
        #expect(ladder.health == .asleep)
        #expect(ladder.wakeAt == nil)
        #expect(ladder.stepsTaken == 0)
    }

    @Test("going down outside a disconnecting step ends the episode: asleep when trusted, else disconnected")
    func asleep() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(), now: Self.at(0))
        _ = ladder.timerFired(now: Self.at(10))
        _ = ladder.stepReturned(.connectProfile, error: nil, now: Self.at(10.5))
        _ = ladder.observe(Self.seen(connected: false), now: Self.at(11))
        #expect(ladder.health == .asleep)
        #expect(ladder.wakeAt == nil)
        #expect(ladder.stepsTaken == 0)
        _ = ladder.observe(Self.seen(connected: false, trusted: false), now: Self.at(12))
        #expect(ladder.health == .disconnected)
    }

    @Test("the user's disconnect cancels healing; the keyboard is disconnected, not asleep")
    func userDisconnect() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(), now: Self.at(0))
        _ = ladder.timerFired(now: Self.at(10))
        let output = ladder.cancel(.disconnect)
        #expect(output.journal == ["healing canceled by kblink disconnect"])
        #expect(ladder.wakeAt == nil)
        // The step that was running returns: ignored.
        #expect(ladder.stepReturned(.connectProfile, error: nil, now: Self.at(10.2)) == HealthLadder.Output())
        _ = ladder.observe(Self.seen(connected: false), now: Self.at(10.3))
        #expect(ladder.health == .disconnected)
        // Connected again (by the user): a new episode.
        _ = ladder.observe(Self.seen(), now: Self.at(50))
        #expect(ladder.health == .waiting)
        #expect(ladder.wakeAt == Self.at(60))
    }

    @Test("a pairing cancels healing while connected: no step runs until the link goes down and up")
    func pairingCancels() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(), now: Self.at(0))
        _ = ladder.cancel(.pairing)
        #expect(ladder.wakeAt == nil)
        #expect(ladder.timerFired(now: Self.at(10)).run == nil)
        #expect(ladder.detail.contains("a pairing"))
        _ = ladder.observe(Self.seen(input: true), now: Self.at(12))
        #expect(ladder.health == .working)
    }

    @Test("budget 0: failed at the deadline without a step; power cycle is the last step only when configured")
    func budgetAndPowerCycle() {
        var none = HealthLadder(settings: HealthSettings(deadline: .seconds(1), budget: 0))
        _ = none.observe(Self.seen(), now: Self.at(0))
        #expect(none.timerFired(now: Self.at(1)).run == nil)
        #expect(none.health == .failed)
        #expect(HealthLadder(settings: Self.settings).ladder == [.connectProfile, .reconnect])
        #expect(
            HealthLadder(settings: HealthSettings(powerCycleAdapter: true)).ladder == [
                .connectProfile, .reconnect, .powerCycleAdapter,
            ])
    }

    @Test("input devices not watched: a connected keyboard is working and nothing is healed")
    func unwatched() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(watched: false), now: Self.at(0))
        #expect(ladder.health == .working)
        #expect(ladder.wakeAt == nil)
    }

    @Test("link not up yet (services resolving): waiting with no deadline running")
    func resolving() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(linkUp: false), now: Self.at(0))
        #expect(ladder.health == .waiting)
        #expect(ladder.wakeAt == nil)
        _ = ladder.observe(Self.seen(), now: Self.at(3))
        #expect(ladder.wakeAt == Self.at(13))
    }

    @Test("sleep stops the ladder; the resume starts over with a whole budget, a failed keyboard too")
    func sleepAndResume() {
        var ladder = HealthLadder(settings: Self.settings)
        _ = ladder.observe(Self.seen(), now: Self.at(0))
        _ = ladder.timerFired(now: Self.at(10))
        #expect(ladder.suspend().journal == ["healing paused: the computer is going to sleep"])
        #expect(ladder.wakeAt == nil)
        #expect(ladder.stepReturned(.connectProfile, error: nil, now: Self.at(11)) == HealthLadder.Output())
        ladder.note(Self.seen(connected: false))
        #expect(ladder.health == .asleep)
        ladder.resume()
        _ = ladder.observe(Self.seen(), now: Self.at(100))
        #expect(ladder.health == .waiting)
        #expect(ladder.wakeAt == Self.at(110))
        #expect(ladder.timerFired(now: Self.at(110)).run == .connectProfile)
        #expect(ladder.stepsTaken == 1)

        var failed = HealthLadder(settings: HealthSettings(deadline: .seconds(1), budget: 0))
        _ = failed.observe(Self.seen(), now: Self.at(0))
        _ = failed.timerFired(now: Self.at(1))
        #expect(failed.health == .failed)
        _ = failed.suspend()
        failed.resume()
        _ = failed.observe(Self.seen(input: true), now: Self.at(50))
        #expect(failed.health == .working)
    }

    @Test("durations in words")
    func words() {
        #expect(HealthLadder.words(.seconds(10)) == "10 s")
        #expect(HealthLadder.words(.milliseconds(2500)) == "2.5 s")
        #expect(HealthLadder.words(.milliseconds(50)) == "0.05 s")
    }
}
