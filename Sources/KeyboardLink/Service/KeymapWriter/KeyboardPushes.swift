import KeyboardLinkBlueZ
import KeyboardLinkDrivers

/// Who is talking to each keyboard's firmware: one push, pull, re-apply or first-contact read at a time.
///
/// A first-contact read (kblinkd reading a keyboard's keymap into the base when it connects) and a firmware check
/// (`CheckAction`, which `kblink keymap set` makes and may stop waiting for, when nothing on the keyboard's connection
/// learned what its firmware holds yet: `KeymapWriter.actionSupport`) are queued, not exclusive: a push or
/// pull that arrives meanwhile waits for them to end, then goes on. A push that arrives while another push, pull or
/// re-apply runs is refused (`Busy`): two writers would interleave.
package actor KeyboardPushes {
    /// What holds a keyboard.
    enum Claim: Sendable, Equatable {
        /// A push, pull or re-apply on connect.
        case writer
        /// The read of the keyboard's keymap into the base on first contact.
        case firstContactRead
        /// `CheckAction`: whether the firmware can hold an action; nothing is written.
        case check

        /// Whether a writer waits for this claim to end instead of being refused.
        var isQueued: Bool { self != .writer }
    }

    private var running: [BluetoothAddress: Claim] = [:]
    private var waiting: [BluetoothAddress: [CheckedContinuation<Void, Never>]] = [:]
    /// How VIA keyboards are reached (hidraw; a socketpair in tests).
    package private(set) var viaLinks = VIADriverLinks.hidraw()

    /// Creates an empty registry.
    package init() {}

    /// Claims a keyboard for a push, pull, re-apply (`.writer`) or check. While a first-contact read or a check holds
    /// it, waits for that to end (`waitingForRead` is called once, first, when it is a first-contact read); false
    /// when a writer holds it.
    func begin(
        _ address: BluetoothAddress, as claim: Claim = .writer, waitingForRead: @Sendable () async -> Void = {}
    ) async -> Bool {
        var told = false
        while let holder = running[address] {
            guard holder.isQueued else { return false }
            if !told && holder == .firstContactRead {
                told = true
                await waitingForRead()
                continue
            }
            await withCheckedContinuation { continuation in
                waiting[address, default: []].append(continuation)
            }
        }
        running[address] = claim
        return true
    }

    /// Claims a keyboard for its first-contact read; false when anything holds it, unless `waiting`: then it waits
    /// until nothing does.
    func beginFirstContactRead(_ address: BluetoothAddress, waiting: Bool = false) async -> Bool {
        while running[address] != nil {
            guard waiting else { return false }
            await withCheckedContinuation { continuation in
                self.waiting[address, default: []].append(continuation)
            }
        }
        running[address] = .firstContactRead
        return true
    }

    /// Releases a keyboard; whoever waited for it tries again.
    func end(_ address: BluetoothAddress) {
        running[address] = nil
        for continuation in waiting.removeValue(forKey: address) ?? [] { continuation.resume() }
    }

    /// Replaces how VIA keyboards are reached (tests serve a simulated keyboard on a socketpair).
    package func setVIALinks(_ links: VIADriverLinks) {
        viaLinks = links
    }

    /// Whether a push, pull, re-apply or first-contact read of the keyboard is running.
    package func isPushing(_ address: BluetoothAddress) -> Bool {
        running[address] != nil
    }

    /// Whether kblinkd is reading the keyboard's keymap on first contact.
    package func isReadingOnFirstContact(_ address: BluetoothAddress) -> Bool {
        running[address] == .firstContactRead
    }
}
