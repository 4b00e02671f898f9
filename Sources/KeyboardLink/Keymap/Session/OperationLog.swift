/// A linear history of operations with a cursor: undo moves the cursor back, redo forward, and appending after an
/// undo drops the entries beyond the cursor (the redo tail), as editors do.
///
/// The log only keeps the order; what an entry does is up to its owner (`KeymapEditSession` for keymap edits,
/// `MacroRecorder` for recorded steps).
package struct OperationLog<Entry: Sendable>: Sendable {
    /// Every entry, applied ones first, then the redo tail.
    package private(set) var entries: [Entry]
    /// How many entries are applied: `entries[..<cursor]`.
    package private(set) var cursor: Int

    /// An empty log.
    package init() {
        entries = []
        cursor = 0
    }

    /// A log with entries of which the first `cursor` are applied (clamped to the entries).
    package init(entries: [Entry], cursor: Int) {
        self.entries = entries
        self.cursor = min(max(cursor, 0), entries.count)
    }

    /// The applied entries, oldest first.
    package var applied: ArraySlice<Entry> { entries[..<cursor] }
    /// The undone entries that redo would apply again, next first.
    package var redoTail: ArraySlice<Entry> { entries[cursor...] }
    /// Whether there is an entry to undo.
    package var canUndo: Bool { cursor > 0 }
    /// Whether there is an entry to redo.
    package var canRedo: Bool { cursor < entries.count }

    /// Appends an applied entry, dropping the redo tail.
    package mutating func append(_ entry: Entry) {
        entries.removeSubrange(cursor...)
        entries.append(entry)
        cursor += 1
    }

    /// Steps back over the last applied entry and returns it (nil when nothing is applied).
    package mutating func undo() -> Entry? {
        guard canUndo else { return nil }
        cursor -= 1
        return entries[cursor]
    }

    /// Steps forward over the next undone entry and returns it (nil when there is none).
    package mutating func redo() -> Entry? {
        guard canRedo else { return nil }
        cursor += 1
        return entries[cursor - 1]
    }

    /// Replaces the oldest `count` entries, all applied, with `replacement` (nil: with nothing); the cursor keeps
    /// pointing after the same applied entries.
    package mutating func replaceOldest(_ count: Int, with replacement: Entry?) {
        precondition(count >= 0 && count <= cursor, "only applied entries can be replaced")
        entries.replaceSubrange(0..<count, with: replacement.map { [$0] } ?? [])
        cursor += (replacement == nil ? 0 : 1) - count
    }

    /// Forgets the newest undone entry (the end of the redo tail), if there is one.
    package mutating func dropNewestUndone() {
        guard canRedo else { return }
        entries.removeLast()
    }

    /// Forgets every entry.
    package mutating func removeAll() {
        entries.removeAll()
        cursor = 0
    }

    /// Folds the applied entries over a starting state.
    package func replay<State, Failure: Error>(
        onto base: State, _ apply: (inout State, Entry) throws(Failure) -> Void
    ) throws(Failure) -> State {
        var state = base
        for entry in applied { try apply(&state, entry) }
        return state
    }

    /// The same log with each entry transformed.
    package func map<Other>(_ transform: (Entry) -> Other) -> OperationLog<Other> {
        OperationLog<Other>(entries: entries.map(transform), cursor: cursor)
    }
}

extension OperationLog: Equatable where Entry: Equatable {}
extension OperationLog: Hashable where Entry: Hashable {}
