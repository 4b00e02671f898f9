import Glibc
import KeyboardLink

/// Issue 7's benchmarks: a `KeymapEditSession` applying many edits and undoing them (time and memory), and a
/// `ProfileStore` saving and loading the profile of a 98-key keyboard (`vgn-98pro`) with 8 layers and 32 macros.
struct KeymapBenchmark: Sendable {
    /// Edits applied, then undone, then redone, per round.
    var edits = 10_000
    /// Timed edit rounds (each on a fresh session).
    var rounds = 5
    /// Timed saves and loads per profile.
    var profileRounds = 30

    static let address = "98:00:00:00:98:01"

    /// The keyboard: its layout and a base keymap with 8 layers and 32 macros, some of them bound on layer 1.
    private struct Keyboard: Sendable {
        var layout: PhysicalLayout
        var base: Keymap
        /// The actions edits choose from; none is a default binding, so every edit changes something.
        var actions: [KeyAction]

        init() throws {
            layout = try PhysicalLayout.builtIn("vgn-98pro")
            var keymap = Keymap(defaultsFor: layout, layerCount: 8)
            var macros: [MacroName: Macro] = [:]
            for index in 0..<32 {
                let number = String(index).leftPadded(2)
                macros[try MacroName("M\(number)")] = try Macro(
                    parsing: "ctrl+c, delay 50, text 'snippet \(number)', tap enter, press shift, tap a, release shift")
            }
            keymap.macros = macros
            // Macros M20..M31 on layer 1's first keys and a layer key on layer 0: edits never pick these actions.
            for (offset, key) in layout.keys.prefix(12).enumerated() {
                keymap.setAction(.macro(try MacroName("M\(20 + offset)")), layer: 1, key: key.name)
            }
            if let last = layout.keys.last {
                keymap.setAction(.momentaryLayer(7), layer: 0, key: last.name)
            }
            base = try keymap.validated(for: layout)
            actions =
                try (13...24).map { try KeyAction(parsing: "KC_F\($0)") } + (1...6).map { KeyAction.momentaryLayer($0) }
                + (0..<20).map { .macro(try MacroName("M" + String($0).leftPadded(2))) }
        }

        /// Edit `index`: every (key, layer) in turn, each visit with the next action, so that consecutive edits of
        /// one binding always differ (the layout has 98 keys and 8 layers: 784 is a multiple of 7).
        func edit(_ index: Int) -> (key: KeyName, layer: Int, action: KeyAction) {
            let keyCount = layout.keys.count
            let key = layout.keys[index % keyCount].name
            let layer = (index / keyCount) % base.layerCount
            let visit = index / (keyCount * base.layerCount)
            return (key, layer, actions[(visit + index % 7) % actions.count])
        }
    }

    private struct EditRound: Sendable {
        var apply: Double
        var undo: Double
        var redo: Double
        /// The undo steps the log held after the edits (at most `KeymapEditSession.undoLimit` + 1: past the limit
        /// the oldest edits are merged into one step), each undone and then redone.
        var steps: Int
        /// Heap bytes in use (mallinfo2) after the edits minus before the session was made.
        var heapGrowth: Int
        /// This process's VmRSS after the edits minus before, in KiB.
        var residentGrowthKiB: Int
    }

    private struct ProfileSample: Sendable {
        var save: Double
        var load: Double
        var restore: Double
    }

    func run() async throws -> String {
        let edits = self.edits
        let rounds = self.rounds
        let keyboard = try Keyboard()
        let expected = Self.expectedKeymap(keyboard, edits: edits)
        let editRounds = try await blockingThrows { () -> [EditRound] in
            // Each round's session stays alive until all rounds are done, so that each round's memory growth is
            // its own session's, not pages freed by the round before.
            var kept: [KeymapEditSession] = []
            return try (0..<rounds).map { _ in
                let (round, session) = try Self.editRound(keyboard, edits: edits, expected: expected)
                kept.append(session)
                return round
            }
        }
        var report = "Keymap edit session: vgn-98pro (\(keyboard.layout.keys.count) keys), 8 layers, 32 macros; "
        report += "\(edits) setBinding edits over every key and layer, then every undo step the log holds (at most "
        report += "\(KeymapEditSession.undoLimit), the older edits merged into one more), then as many redos; "
        report += "\(rounds) rounds, each on a fresh session\n\n"
        report += editTable(editRounds, edits: edits) + "\n\n"

        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let store = ProfileStore(directory: scratch.path + "/profiles")
        let address = try KeyboardAddress(Self.address)
        let fresh = try KeymapEditSession(layout: keyboard.layout, base: keyboard.base)
        var edited = fresh
        for index in 0..<edits {
            let edit = keyboard.edit(index)
            try edited.setBinding(key: edit.key, action: edit.action, layer: edit.layer)
        }
        let profileRounds = self.profileRounds
        let layout = keyboard.layout
        let profiles = [
            ("no draft", StoredProfile(address: address, session: fresh), profileRounds),
            ("draft of \(edits) edits", StoredProfile(address: address, session: edited), max(3, profileRounds / 3)),
        ]
        var rows: [[String]] = []
        for (name, profile, count) in profiles {
            let samples = try await blockingThrows { () -> [ProfileSample] in
                try (0..<(count + 1)).map { _ in try Self.profileRound(profile, store: store, layout: layout) }
                    .dropFirst().map { $0 }
            }
            let size = Self.fileSize(store.path(for: address))
            for (step, values) in [
                ("save", samples.map(\.save)), ("load", samples.map(\.load)),
                ("load + restore the session", samples.map { $0.load + $0.restore }),
            ] {
                let summary = Summary(values)
                rows.append([
                    "\(step), \(name)", Format.number(Double(size)), Format.milliseconds(summary.min),
                    Format.milliseconds(summary.median), Format.milliseconds(summary.mean), String(count),
                ])
            }
        }
        report += "Profile: ProfileStore.save (atomic: temp file, fsync, rename, fsync the directory) and "
        report += "ProfileStore.load of the vgn-98pro profile (8 layers, 32 macros), in \(scratch.path) "
        report += "(\(Self.fileSystem(scratch.path))); "
        report += "restore = StoredProfile.session(layout:), replaying the draft\n\n"
        report += Format.table(["profile", "file bytes", "min ms", "median ms", "mean ms", "runs"], rows) + "\n"
        return report
    }

    // MARK: Edits

    private static func editRound(_ keyboard: Keyboard, edits: Int, expected: Keymap) throws
        -> (EditRound, KeymapEditSession)
    {
        let plan = (0..<edits).map(keyboard.edit)
        let heapBefore = heapInUse()
        let residentBefore = ProcessMemory.currentResidentKiB()
        var session = try KeymapEditSession(layout: keyboard.layout, base: keyboard.base)
        let clock = ContinuousClock()
        var began = clock.now
        for edit in plan {
            guard try session.setBinding(key: edit.key, action: edit.action, layer: edit.layer) else {
                throw BenchError("an edit changed nothing: \(edit)")
            }
        }
        let apply = (clock.now - began).seconds
        let heapGrowth = heapInUse() - heapBefore
        let residentGrowth = ProcessMemory.currentResidentKiB() - residentBefore
        guard session.draftKeymap == expected else { throw BenchError("the draft after the edits is wrong") }

        began = clock.now
        var steps = 0
        while session.canUndo {
            try session.undo()
            steps += 1
        }
        let undo = (clock.now - began).seconds
        guard !session.canUndo, !session.isDirty, session.draftKeymap == keyboard.base else {
            throw BenchError("undoing every edit did not give the base keymap back")
        }

        began = clock.now
        for _ in 0..<steps { try session.redo() }
        let redo = (clock.now - began).seconds
        guard !session.canRedo, session.draftKeymap == expected else {
            throw BenchError("redoing every edit did not give the edited keymap back")
        }
        return (
            EditRound(
                apply: apply, undo: undo, redo: redo, steps: steps, heapGrowth: heapGrowth,
                residentGrowthKiB: residentGrowth),
            session
        )
    }

    /// The keymap the edits give, computed without a session: the base with each binding's last value.
    private static func expectedKeymap(_ keyboard: Keyboard, edits: Int) -> Keymap {
        var keymap = keyboard.base
        for index in 0..<edits {
            let edit = keyboard.edit(index)
            keymap.setAction(edit.action, layer: edit.layer, key: edit.key)
        }
        return keymap
    }

    private func editTable(_ rounds: [EditRound], edits: Int) -> String {
        func row(_ name: String, _ values: [Double], operations: Int) -> [String] {
            let summary = Summary(values)
            return [
                name, String(operations), Format.milliseconds(summary.min), Format.milliseconds(summary.median),
                Format.milliseconds(summary.mean), Format.number(summary.median / Double(max(operations, 1)) * 1e9),
            ]
        }
        let steps = rounds.map(\.steps).max() ?? 0
        let heap = Summary(rounds.map { Double($0.heapGrowth) })
        let resident = Summary(rounds.map { Double($0.residentGrowthKiB) })
        return Format.table(
            ["operation", "count", "min ms", "median ms", "mean ms", "ns/op (median)"],
            [
                row("apply (setBinding)", rounds.map(\.apply), operations: edits),
                row("undo", rounds.map(\.undo), operations: steps),
                row("redo", rounds.map(\.redo), operations: steps),
            ])
            + "\n\nMemory held by the session after the edits (each round's session kept alive), min / median / max over"
            + " rounds:\nheap in use (glibc malloc_info) +\(Format.number(heap.min / 1_048_576, decimals: 2))"
            + " / \(Format.number(heap.median / 1_048_576, decimals: 2))"
            + " / \(Format.number(heap.max / 1_048_576, decimals: 2)) MiB"
            + " (median \(Format.number(heap.median / Double(edits))) bytes per logged edit);"
            + " VmRSS +\(Format.number(resident.min / 1024, decimals: 2))"
            + " / \(Format.number(resident.median / 1024, decimals: 2))"
            + " / \(Format.number(resident.max / 1024, decimals: 2)) MiB."
    }

    // MARK: Profiles

    private static func profileRound(_ profile: StoredProfile, store: ProfileStore, layout: PhysicalLayout) throws
        -> ProfileSample
    {
        let clock = ContinuousClock()
        var began = clock.now
        try store.save(profile)
        let save = (clock.now - began).seconds
        began = clock.now
        let result = try store.load(profile.address)
        let load = (clock.now - began).seconds
        guard case .loaded(let loaded) = result, loaded == profile else {
            throw BenchError("the profile loaded back differs from the one saved: \(result)")
        }
        began = clock.now
        let session = try loaded.session(layout: layout)
        let restore = (clock.now - began).seconds
        guard session.draftRecord == profile.draft else { throw BenchError("the restored draft differs") }
        return ProfileSample(save: save, load: load, restore: restore)
    }

    private static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// The file system `path` is on (fsync costs nothing on tmpfs).
    private static func fileSystem(_ path: String) -> String {
        // The mount with the longest mount point that contains the path (statfs is not in the Glibc module).
        var best: (point: String, type: String) = ("", "unknown")
        for line in (ProcessMemory.readText("/proc/self/mounts") ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2 else { continue }
            let point = String(fields[1])
            let inside = point == "/" || path == point || path.hasPrefix(point + "/")
            if inside && point.count >= best.point.count { best = (point, String(fields[2])) }
        }
        return "\(best.type) mounted on \(best.point)"
    }

    /// Bytes the C heap has handed out and not taken back (0 when glibc cannot tell).
    static func heapInUse() -> Int {
        HeapUsage.bytesInUse() ?? 0
    }
}
