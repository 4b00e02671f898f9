import Testing

@testable import KeyboardLinkPairing

/// What is undone after a pairing that did not finish.
@Suite struct PairingRepairTests {
    typealias Flags = PairingDeviceFlags

    @Test(
        arguments: [
            // A new keyboard: whatever the pairing left is removed or untrusted.
            (Flags(paired: false, trusted: false), Flags(paired: false, trusted: false), [PairingRepair]()),
            (Flags(paired: false, trusted: false), Flags(paired: true, trusted: false), [.removeDevice]),
            (Flags(paired: false, trusted: false), Flags(paired: true, trusted: true), [.removeDevice]),
            (Flags(paired: false, trusted: false), Flags(paired: false, trusted: true), [.setTrusted(false)]),
            (Flags(paired: false, trusted: true), Flags(paired: false, trusted: true), [.setTrusted(false)]),
            // An already-paired keyboard keeps its bond; its trust goes back to what it was.
            (Flags(paired: true, trusted: false), Flags(paired: true, trusted: true), [.setTrusted(false)]),
            (Flags(paired: true, trusted: true), Flags(paired: true, trusted: true), []),
            (Flags(paired: true, trusted: false), Flags(paired: true, trusted: false), []),
        ])
    func repairs(before: Flags, now: Flags, expected: [PairingRepair]) {
        #expect(PairingRepair.repairs(before: before, now: now) == expected)
    }

    @Test(
        arguments: [
            (PairingStep.pairing, true, true), (.pairing, false, false), (.discovering, false, false),
            (.connecting, false, false), (.trusting, true, false),
        ])
    func bluezIsToldToStopOnlyWhilePairRuns(step: PairingStep, running: Bool, expected: Bool) {
        #expect(PairingRepair.needsCancel(step: step, pairCallRunning: running) == expected)
    }

    @Test func flagsFromDeviceProperties() {
        let flags = Flags(properties: [
            "Paired": .boolean(true), "Trusted": .boolean(false), "Connected": .boolean(true),
        ])
        #expect(flags == Flags(paired: true, trusted: false, connected: true))
        #expect(!flags.isComplete)
        #expect(Flags(properties: [:]) == Flags(paired: false, trusted: false, connected: false))
        #expect(Flags(paired: true, trusted: true, connected: true).isComplete)
    }
}
