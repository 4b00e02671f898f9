import KeyboardLinkBlueZ
import KeyboardLinkDBus
import Synchronization

/// The last `ListKeyboards` answer and the keyboards it was built from, so that repeated lists of an unchanged
/// set of keyboards cost kblinkd no rebuilding: building 1,000 entries (object paths, formatted addresses, sorted
/// firmware keys) took about two thirds of kblinkd's time per call.
///
/// Validity is checked by comparing the kept dictionary with the service's current one: while nothing changed
/// they share storage and the comparison is one pointer check; after a change it compares (and usually differs
/// at once), so the answer can never be stale.
final class KeyboardListCache: Sendable {
    private struct Entry {
        var keyboards: [BluetoothAddress: KeyboardState]
        var list: DBusValue
    }

    private let entry = Mutex<Entry?>(nil)

    /// The answer for `keyboards`: the kept one when they are unchanged, otherwise `build()`'s, kept for next time.
    func list(
        for keyboards: [BluetoothAddress: KeyboardState], build: ([BluetoothAddress: KeyboardState]) -> DBusValue
    ) -> DBusValue {
        if let kept = entry.withLock({ $0 }), kept.keyboards == keyboards {
            return kept.list
        }
        let list = build(keyboards)
        entry.withLock { $0 = Entry(keyboards: keyboards, list: list) }
        return list
    }
}
