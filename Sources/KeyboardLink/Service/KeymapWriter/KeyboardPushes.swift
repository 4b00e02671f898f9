import KeyboardLinkBlueZ
import KeyboardLinkDrivers

/// Who is talking to each keyboard's firmware, or taking its link down: one push, pull, re-apply, first-contact read
/// or healing step at a time.
///
/// A first-contact read (kblinkd reading a keyboard's keymap into the base when it connects) and a firmware check
/// (`CheckAction`, which `kblink keymap set` makes and may stop waiting for, when nothing on the keyboard's connection
/// learned what its firmware holds yet: `KeymapWriter.actionSupport`) are queued, not exclusive: a push or
/// pull that arrives meanwhile waits for them to end, then goes on. A push that arrives while another push, pull or
/// re-apply runs is refused (`Busy`): two writers would interleave.
///
/// A healing step that disconnects the keyboard (`KeyboardRegistry+Health.swift`: reconnect, adapter power cycle)
/// waits until nothing holds it, and whatever arrives while it runs waits for it: a step that took the link down
/// under a firmware session would make it fail with `NotConnected` halfway.
package actor KeyboardPushes {
    /// What holds a keyboard.
    enum Claim: Sendable, Equatable {
        /// A push, pull or re-apply on connect.
        case writer
        /// The read of the keyboard's keymap into the base on first contact.
        case firstContactRead
        /// `CheckAction`: whether the firmware can hold an action; nothing is written.
        case check
        /// A healing step that disconnects the keyboard.
        case heal

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

    /// Claims a keyboard for its first-contact read; false when a firmware session holds it, unless `waiting`: then
    /// it waits until nothing does. It always waits for a healing step (the keyboard is connecting again).
    func beginFirstContactRead(_ address: BluetoothAddress, waiting: Bool = false) async -> Bool {
        while let holder = running[address] {
            guard waiting || holder == .heal else { return false }
            await withCheckedContinuation { continuation in
                self.waiting[address, default: []].append(continuation)
            }
        }
        running[address] = .firstContactRead
        return true
    }

    /// Claims a keyboard for a healing step that disconnects it, once nothing else holds it; true when it had to
    /// wait for a firmware session to end first.
    @discardableResult
    func beginHeal(_ address: BluetoothAddress) async -> Bool {
        var waited = false
        while running[address] != nil {
            waited = true
            await withCheckedContinuation { continuation in
                waiting[address, default: []].append(continuation)
            }
        }
        running[address] = .heal
        return waited
    }

    /// Returns once no healing step holds the keyboard (a push or pull checks the keyboard's connection after it: the
    /// step takes the link down and brings it back); true when it waited.
    @discardableResult
    func waitWhileHealing(_ address: BluetoothAddress) async -> Bool {
        var waited = false
        while running[address] == .heal {
            waited = true
            await withCheckedContinuation { continuation in
                waiting[address, default: []].append(continuation)
            }
        }
        return waited
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
        running[address].map { $0 != .heal } ?? false
    }

    /// Whether a healing step that disconnects the keyboard is running.
    package func isHealing(_ address: BluetoothAddress) -> Bool {
        running[address] == .heal
    }

    /// Whether kblinkd is reading the keyboard's keymap on first contact.
    package func isReadingOnFirstContact(_ address: BluetoothAddress) -> Bool {
        running[address] == .firstContactRead
    }
}
