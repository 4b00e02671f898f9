/// The undo log's bounds, so that a saved profile (base, the keyboard's keymap, the log) always stays well under the
/// 16 MiB the daemon reads back.
///
/// The log keeps at most ``KeymapEditSession/undoLimit`` edits and about ``KeymapEditSession/undoByteBudget`` bytes
/// of them. Past either, the two oldest edits are merged into one, again and again: the merged edit imports the
/// draft as it stood after them (a `replaceKeymap` of that keymap), so the draft does not change, and one `Undo` of
/// the merged edit takes the draft back to the base. What is lost is the steps between the base and the oldest kept
/// edit. Undone edits beyond the bounds (a redo tail restored from a bigger record) are dropped from the newest.
extension KeymapEditSession {
    /// The most edits the log keeps.
    package static let undoLimit = 1_000
    /// About how many bytes of edits the log keeps: the operations (macro text, imported keymaps) and what each
    /// changed (every binding and macro it touched, old and new).
    package static let undoByteBudget = 4 << 20

    /// About how many bytes the log's edits take.
    package var undoLogSize: Int { log.entries.reduce(0) { $0 + $1.size } }

    /// Merges or drops edits until the log is within its bounds; the draft stays the same.
    mutating func boundLog() {
        while log.entries.count > Self.undoLimit || (log.entries.count > 1 && undoLogSize > Self.undoByteBudget) {
            let before = log.entries.count
            if log.cursor >= 2 {
                mergeOldestTwo()
                // A merge that could not be made (see mergeOldestTwo) leaves the log as it is: stop rather than loop.
                if log.entries.count == before { return }
            } else if log.canRedo {
                log.dropNewestUndone()
            } else {
                return
            }
        }
    }

    /// Replaces the two oldest (applied) edits with one that imports the draft as it was after them.
    private mutating func mergeOldestTwo() {
        // The two oldest edits' changes are relative to the base and to the state after the first, so applying them
        // to the base gives the draft as it stood after them.
        guard let fromBase = try? KeymapEditSession(layout: layout, base: base) else { return }
        var earlier = fromBase
        earlier.perform(log.entries[0].change)
        earlier.perform(log.entries[1].change)
        let merged = earlier.draftKeymap
        // The merged edit is first in the log, so it is measured from the base.
        guard let change = try? fromBase.changes(for: .replaceKeymap(merged)) else {
            // The draft came from valid edits on this base and layout, so this does not happen; keep the two edits
            // rather than lose part of the draft.
            return
        }
        log.replaceOldest(
            2, with: change.isEmpty ? nil : LoggedEdit(operation: .replaceKeymap(merged), change: change))
    }
}

extension EditOperation {
    /// About how many bytes the operation takes in a saved profile: its macro text and its bindings.
    var estimatedSize: Int {
        switch self {
        case .setBinding, .clearZone, .copyZone, .swapZones, .removeMacro, .addLayer, .removeLayer, .renameLayer,
            .moveLayer, .copyLayer:
            return 64
        case .setMacro(_, let macro), .recordMacro(_, let macro):
            return 64 + macro.description.utf8.count
        case .importProfile(let keymap), .mergeProfile(let keymap), .replaceKeymap(let keymap):
            return keymap.estimatedSize
        }
    }
}

extension Keymap {
    /// The most macro text (in the macro syntax) one keymap may hold, all macros together: keyboards hold a few
    /// kilobytes (a VIA macro buffer), and the bound keeps a saved profile loadable.
    package static let maximumMacroText = 1 << 20

    /// About how many bytes the keymap takes in a saved profile: 32 per binding, its macros' text.
    var estimatedSize: Int {
        64 + layers.reduce(0) { $0 + $1.count * 32 } + macroTextSize
    }

    /// The length of all macros' text, in bytes.
    var macroTextSize: Int {
        macros.reduce(0) { $0 + 40 + $1.value.description.utf8.count }
    }
}
