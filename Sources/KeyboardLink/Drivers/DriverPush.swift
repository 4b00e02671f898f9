import KeyboardLinkKeymap
import Synchronization

/// Pushes a keymap to a keyboard through its driver: reads what the keyboard holds, adds the layers the keymap
/// binds keys on that the keyboard lacks (where the firmware can: ZMK Studio), writes only the macro slots and
/// bindings that differ, reads back to verify, saves; a failure after the first change rolls the keyboard back.
package struct DriverPush: Sendable {
    /// What a push did (or, for a dry run, would do).
    package struct Outcome: Sendable, Equatable {
        /// The bindings written (or to write), in layer then layout order.
        package var writes: [DriverKeyWrite]
        /// What the keyboard held before, for each written binding.
        package var previous: [DeviceKeymap.Binding]
        /// The macro slots written (or to write) first; nil when none changed.
        package var macros: DriverMacroWrite?
        /// Whether the keyboard was read back and matched.
        package var verified: Bool
        /// Whether the changes were saved.
        package var saved: Bool
        /// Whether nothing was written because it was a dry run.
        package var dryRun: Bool
        /// What a real push could not write (only a dry run answers with problems; a push throws them).
        package var problems: [Problem] = []
        /// The layers added (or, for a dry run, to add) after the keyboard's last one before writing.
        package var addedLayers = 0
        /// The keyboard's last layers removed (or, for a dry run, to remove): ZMK Studio `remove_layer`.
        package var removedLayers = 0
        /// The layers given the draft's name (or, for a dry run, to name): ZMK Studio `set_layer_props`.
        package var renamedLayers = 0
        /// A merging push: keys the keyboard changed by itself since the base, kept and adopted into the next base.
        package var kept: [PushMerge.Difference] = []
        /// A merging push: keys both the user and the keyboard changed, differently (a dry run lists them; a push
        /// throws them unless they were resolved).
        package var conflicts: [PushMerge.Difference] = []
        /// An overwriting push: how many of the written bindings the user did not edit (the draft holds the base's
        /// binding there); nil for other pushes.
        package var uneditedWrites: Int?
        /// What the keyboard holds after the push (read back when verified), in the keymap model's terms: the next
        /// base. Nil for a dry run.
        package var holding: Keymap?

        /// Creates an outcome.
        package init(
            writes: [DriverKeyWrite], previous: [DeviceKeymap.Binding], macros: DriverMacroWrite? = nil, verified: Bool,
            saved: Bool, dryRun: Bool, problems: [Problem] = [], addedLayers: Int = 0
        ) {
            self.addedLayers = addedLayers
            self.writes = writes
            self.previous = previous
            self.macros = macros
            self.verified = verified
            self.saved = saved
            self.dryRun = dryRun
            self.problems = problems
        }
    }

    /// A binding the keyboard's firmware cannot hold, found before anything is written.
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The layer.
        package var layer: Int
        /// The key; nil when only an action was checked.
        package var key: KeyName?
        /// The action (printed in QMK spelling).
        package var action: KeyAction
        /// Why the firmware cannot hold it.
        package var reason: String

        /// Creates a problem.
        package init(layer: Int, key: KeyName?, action: KeyAction, reason: String) {
            self.layer = layer
            self.key = key
            self.action = action
            self.reason = reason
        }

        package var description: String {
            (key.map { "\($0) on layer \(layer) " } ?? "") + "(\(action)): \(reason)"
        }
    }

    /// A push that failed: what went wrong and whether the keyboard was put back.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The driver's error.
        package var error: DriverError
        /// Bindings written before the failure.
        package var written: Int
        /// Whether the written bindings (and macro slots) were rolled back (always true when none were written).
        package var rolledBack: Bool
        /// Whether writing the macro slots had begun.
        package var wroteMacros = false
        /// Whether the push failed while reading the keyboard and planning, before any request that changes the
        /// keyboard (adding a layer, writing a binding or a macro slot): then the keyboard is as it was, and the same
        /// push can be tried again.
        package var beforeChanges = false

        package var description: String {
            guard written > 0 || wroteMacros else {
                return error.message + "; nothing was written, the draft is kept"
            }
            if rolledBack {
                return error.message + "; the keyboard was rolled back to its previous keymap and the draft is kept"
            }
            return error.message
                + "; rolling back failed too, so the keyboard may hold part of the change"
                + (wroteMacros ? " (a half-written macro buffer plays no macro until it is written again)" : "")
                + "; the draft is kept: push again once the keyboard is back"
        }
    }

    /// The driver.
    package let driver: any KeyboardDriver
    /// The keyboard's layout.
    package let layout: PhysicalLayout

    /// Creates a push through `driver` on `layout`.
    package init(driver: any KeyboardDriver, layout: PhysicalLayout) {
        self.driver = driver
        self.layout = layout
    }

    /// The binding writes that turn `device` into `desired` (`changes(desired:device:layout:).keys`).
    /// - Throws: as `changes`.
    package static func plan(desired: Keymap, device: DeviceKeymap, layout: PhysicalLayout)
        throws(DriverError) -> [DriverKeyWrite]
    {
        try changes(desired: desired, device: device, layout: layout).keys
    }

    /// What turns `device` into `desired`: the layers to add, up to the highest layer of `desired` that binds a key
    /// (when the firmware has room for them: `DeviceKeymap.addableLayers`); on keyboards with runtime macros, the
    /// macro slots (each macro bound in `desired` gets one: the slot already holding it, else the lowest free one,
    /// in name order; other slots are emptied); then the bindings that differ, in layer then layout key order
    /// (on a layer to add, its keys that are not transparent: what it holds is only known once added).
    /// Layers of `desired` above the keyboard's (and above the added ones) that are all transparent are left out.
    /// - Parameter only: the keys a merging push may write (`PushMerge.edited`); nil lets every key that differs be
    ///   written, except that a binding the keymap model cannot express (`.other`, a ZMK behaviour kblink does not
    ///   know) is never replaced by the layer's cleared action, which is how such a binding reads.
    /// - Throws: `DriverError.notSupported` when `desired` binds keys on layers the keyboard lacks and cannot add
    ///   (naming them), binds more macros than it has slots, or binds a macro it does not define.
    package static func changes(
        desired: Keymap, device: DeviceKeymap, layout: PhysicalLayout, only: Set<PushMerge.KeyPosition>? = nil
    ) throws(DriverError) -> DriverPlan {
        // Layers above what the keyboard holds are left out when they only fall through (transparent): they do
        // nothing a keyboard without them would not do. Layers up to the highest one that binds something are
        // added where the firmware has room; bound layers beyond that room are refused, named.
        let held = device.layers.count
        var layerCount = min(desired.layerCount, held)
        var addedLayers = 0
        if desired.layerCount > held {
            var bound: [(layer: Int, text: String)] = []
            for layer in held..<desired.layerCount {
                let keys = layout.keys.filter {
                    (desired.action(layer: layer, key: $0.name) ?? .transparent) != .transparent
                }
                guard !keys.isEmpty else { continue }
                let names = keys.prefix(5).map(\.name.rawValue).joined(separator: ", ")
                bound.append(
                    (layer, "layer \(layer) (\(names)\(keys.count > 5 ? ", and \(keys.count - 5) more" : ""))"))
            }
            if let highest = bound.last?.layer {
                let room = held + max(0, device.addableLayers)
                let refused = bound.filter { $0.layer >= room }
                guard refused.isEmpty else {
                    let canAdd =
                        device.addableLayers > 0 ? " and can add \(device.addableLayers) more (up to \(room))" : ""
                    throw .notSupported(
                        "the keyboard holds \(held) layer(s) (0 to \(held - 1))\(canAdd) but the draft binds keys on "
                            + "\(refused.map(\.text).joined(separator: " and ")); remove those layers with 'kblink "
                            + "keymap layer remove DEVICE N' (or clear their keys) and push again")
                }
                addedLayers = highest + 1 - held
                layerCount = highest + 1
            }
        }
        let desired = layerCount < desired.layerCount ? Self.keeping(layerCount, of: desired, layout: layout) : desired
        var macroWrite: DriverMacroWrite?
        var assignment: [MacroName: Int] = [:]
        if let macros = device.macros {
            let planned = try slots(desired: desired, device: macros, layout: layout)
            assignment = planned.assignment
            if !planned.changed.isEmpty { macroWrite = planned }
        }
        var writes: [DriverKeyWrite] = []
        for layer in 0..<desired.layerCount {
            for key in layout.keys {
                let action = desired.action(layer: layer, key: key.name) ?? Keymap.clearedAction(layer: layer)
                // A layer to add: its transparent keys are left out of the plan; once added, the push reads what
                // the firmware put there and plans again.
                if layer >= held && action == .transparent { continue }
                if let only, !only.contains(PushMerge.KeyPosition(layer: layer, key: key.name)) { continue }
                if only == nil, case .other? = device.binding(layer: layer, key: key.name),
                    action == Keymap.clearedAction(layer: layer)
                {
                    continue
                }
                // A key the keyboard did not report (not on its active physical layout) is not cleared there.
                if layer < held, device.binding(layer: layer, key: key.name) == nil,
                    action == Keymap.clearedAction(layer: layer)
                {
                    continue
                }
                var wanted = DeviceKeymap.Binding.action(action)
                var slot: Int?
                if let macros = device.macros {
                    if let name = action.referencedMacro {
                        slot = assignment[name]
                        wanted = slot.map { .macroSlot($0) } ?? wanted
                    } else if case .qmkKeycode(let code) = action, code >= KeyAction.qmkMacroBase,
                        case let raw = Int(code - KeyAction.qmkMacroBase), macros.slots.indices.contains(raw)
                    {
                        // A raw QMK_MACRO_n keycode (an empty slot's key, as read) is how the keyboard reads it.
                        wanted = .macroSlot(raw)
                    }
                }
                if device.binding(layer: layer, key: key.name) != wanted {
                    writes.append(DriverKeyWrite(layer: layer, key: key.name, action: action, macroSlot: slot))
                }
            }
        }
        var plan = DriverPlan(addedLayers: addedLayers, macros: macroWrite, keys: writes)
        // Layers the keyboard holds above the desired ones are removed where the firmware can (ZMK Studio); on
        // other keyboards they stay as they are (VIA's layer count is fixed).
        if desired.layerCount < held && device.removesLayers { plan.removedLayers = held - desired.layerCount }
        // Names go where the keyboard holds names and the desired keymap names a layer otherwise. ZMK ignores an
        // empty name, so a name is never cleared on the keyboard.
        if let held = device.layerNames {
            for layer in 0..<desired.layerCount {
                guard let name = desired.layerName(layer) else { continue }
                if layer >= held.count || held[layer] != name.rawValue { plan.layerNames[layer] = name }
            }
        }
        return plan
    }

    /// `keymap` without its layers above `count`.
    private static func keeping(_ count: Int, of keymap: Keymap, layout: PhysicalLayout) -> Keymap {
        keymap.resized(toLayerCount: count, for: layout)
    }

    /// The macro slots `desired` needs on a keyboard holding `device`.
    private static func slots(desired: Keymap, device: DeviceMacros, layout: PhysicalLayout)
        throws(DriverError) -> DriverMacroWrite
    {
        var bound = Set<MacroName>()
        for layer in 0..<desired.layerCount {
            for key in layout.keys {
                if let name = desired.action(layer: layer, key: key.name)?.referencedMacro { bound.insert(name) }
            }
        }
        let names = bound.sorted()
        var entries: [DriverMacroWrite.Entry] = []
        for name in names {
            guard let macro = desired.macros[name] else {
                throw .notSupported("macro \(name) is bound to keys but not defined; define it or unbind it")
            }
            entries.append(DriverMacroWrite.Entry(name: name, macro: macro))
        }
        guard entries.count <= device.slots.count else {
            throw .notSupported(
                "the profile binds \(entries.count) macro(s) (\(names.map(\.rawValue).joined(separator: ", "))), "
                    + "the keyboard has \(device.slots.count) macro slot(s); unbind "
                    + "\(entries.count - device.slots.count) of them from their keys")
        }
        var table = [DriverMacroWrite.Entry?](repeating: nil, count: device.slots.count)
        var taken = Set<Int>()
        var homeless: [DriverMacroWrite.Entry] = []
        for entry in entries {
            if let slot = device.slot(holding: entry.macro, excluding: taken) {
                table[slot] = entry
                taken.insert(slot)
            } else {
                homeless.append(entry)
            }
        }
        var free = table.indices.filter { !taken.contains($0) }.makeIterator()
        for entry in homeless {
            // There are at least as many slots as entries, so a free slot is left for each.
            guard let slot = free.next() else { break }
            table[slot] = entry
        }
        let changed = table.indices.filter { slot in
            switch (table[slot], device.slots[slot]) {
            case (nil, .empty): false
            case (let entry?, .macro(let held)): entry.macro.normalized() != held
            default: true
            }
        }
        return DriverMacroWrite(slots: table, changed: changed)
    }

    /// What a push makes the keyboard hold.
    package enum Target: Sendable, Equatable {
        /// This keymap, every binding that differs (re-apply on connect, `--overwrite`).
        case keymap(Keymap)
        /// The user's edits: the draft merged with the keyboard against the base (`PushMerge`). With
        /// `.overwrite`, the whole draft, counting the bindings written that the user did not edit.
        case merge(base: Keymap, draft: Keymap, resolution: PushMerge.Resolution)
    }

    /// Runs a push that makes the keyboard hold `desired` (`run(.keymap(desired), ...)`).
    package func run(
        desired: Keymap, dryRun: Bool, verify: Bool, progress: @Sendable (Int, Int) async -> Void = { _, _ in }
    ) async throws(Failure) -> Outcome {
        try await run(.keymap(desired), dryRun: dryRun, verify: verify, progress: progress)
    }

    /// Runs the push.
    /// - Parameters:
    ///   - target: what the keyboard should hold.
    ///   - dryRun: plan only, write nothing.
    ///   - verify: read the keyboard back after writing and compare.
    ///   - progress: called after each write with (done, total); the macro slots count as one write.
    /// - Throws: `Failure`; `DriverError.conflict` (nothing written) when a merge stops on conflicts.
    package func run(
        _ target: Target, dryRun: Bool, verify: Bool, progress: @Sendable (Int, Int) async -> Void = { _, _ in }
    ) async throws(Failure) -> Outcome {
        var device: DeviceKeymap
        var plan: DriverPlan
        var problems: [Problem] = []
        var desired: Keymap
        var merge: PushMerge?
        do throws(DriverError) {
            device = try await driver.readKeymap(layout: layout)
            switch target {
            case .keymap(let keymap):
                desired = keymap
            case .merge(let base, let draft, let resolution):
                let merged = PushMerge(base: base, draft: draft, device: device, layout: layout, resolution: resolution)
                desired = merged.desired
                merge = merged
            }
            plan = try Self.changes(desired: desired, device: device, layout: layout, only: merge?.edited)
            // Every binding the firmware cannot hold, each named by key and layer, before anything is written.
            var verdicts: [KeyAction: String?] = [:]
            for write in plan.keys where write.macroSlot == nil {
                if write.layer < device.layers.count, device.binding(layer: write.layer, key: write.key) == nil {
                    problems.append(
                        Problem(
                            layer: write.layer, key: write.key, action: write.action,
                            reason: "the keyboard's active physical layout has no such key"))
                    continue
                }
                if verdicts[write.action] == nil {
                    do throws(DriverError) {
                        try await driver.check(write.action)
                        verdicts[write.action] = .some(nil)
                    } catch .notSupported(let reason) {
                        verdicts[write.action] = .some(reason)
                    }
                }
                if let reason = verdicts[write.action] ?? nil {
                    problems.append(Problem(layer: write.layer, key: write.key, action: write.action, reason: reason))
                }
            }
            if let macros = plan.macros, let held = device.macros {
                try await driver.check(macros, on: held)
            }
            if let conflicts = merge?.conflicts, !conflicts.isEmpty, !dryRun {
                throw .conflict(Self.conflictMessage(conflicts))
            }
            if !problems.isEmpty && !dryRun {
                throw .notSupported(
                    "the keyboard's firmware cannot hold \(problems.count) binding(s): "
                        + problems.map(\.description).joined(separator: "; ")
                        + "; change them with 'kblink keymap set' ('kblink keymap push --dry-run' lists them)")
            }
        } catch {
            throw Failure(error: error, written: 0, rolledBack: true, beforeChanges: true)
        }
        let addedLayers = plan.addedLayers
        let uneditedWrites = Self.uneditedWrites(plan.keys, target: target)
        if dryRun || plan.isEmpty {
            var outcome = Outcome(
                writes: plan.keys,
                previous: plan.keys.map {
                    device.binding(layer: $0.layer, key: $0.key)
                        ?? .other($0.layer >= device.layers.count ? "(layer to add)" : "nothing")
                },
                macros: plan.macros, verified: false, saved: false, dryRun: dryRun, problems: problems,
                addedLayers: addedLayers)
            outcome.kept = merge?.kept ?? []
            outcome.conflicts = merge?.conflicts ?? []
            outcome.uneditedWrites = uneditedWrites
            outcome.removedLayers = plan.removedLayers
            outcome.renamedLayers = plan.layerNames.count
            if !dryRun {
                outcome.holding = Self.holding(
                    device, layout: layout, macros: desired.macros, names: desired.layerNames)
            }
            return outcome
        }
        if addedLayers > 0 {
            do throws(DriverError) {
                try await driver.addLayers(addedLayers)
                // An added layer holds what the firmware gives it (ZMK: that layer's devicetree bindings): read it,
                // and write only what differs.
                device = try await driver.readKeymap(layout: layout)
                plan = try Self.changes(desired: desired, device: device, layout: layout, only: merge?.edited)
                guard plan.addedLayers == 0 else {
                    throw .failed("the keyboard took the request to add \(addedLayers) layer(s) but did not add them")
                }
            } catch {
                // Added layers are staged: discarding them puts the keyboard back.
                let rolledBack = await rollBack(device, written: [], macros: false)
                throw Failure(error: error, written: 0, rolledBack: rolledBack)
            }
        }
        let writes = plan.keys
        let previous = writes.map { device.binding(layer: $0.layer, key: $0.key) ?? .other("nothing") }
        let total = writes.count + (plan.macros == nil ? 0 : 1)
        let taken = WriteCount()
        var wroteMacros = false
        var holding: Keymap
        do throws(DriverError) {
            await progress(0, total)
            if let macros = plan.macros, let held = device.macros {
                wroteMacros = true
                try await driver.write(macros, replacing: held)
                await progress(1, total)
            }
            if !writes.isEmpty {
                try await driver.write(writes, layout: layout) { count in
                    taken.set(count)
                    await progress(total - writes.count + count, total)
                }
            }
            if plan.removedLayers > 0 { try await driver.removeLayers(plan.removedLayers) }
            for (layer, name) in plan.layerNames.sorted(by: { $0.key < $1.key }) {
                try await driver.setLayerName(name, layer: layer)
            }
            if verify {
                let readBack = try await driver.readKeymap(layout: layout)
                let remaining = try Self.changes(
                    desired: desired, device: readBack, layout: layout, only: merge?.edited)
                if let first = remaining.keys.first {
                    throw .failed(
                        "reading back found \(remaining.keys.count) binding(s) the keyboard did not take, "
                            + "first \(first.key) on layer \(first.layer)")
                }
                if remaining.removedLayers > 0 || !remaining.layerNames.isEmpty {
                    throw .failed(
                        "reading back found \(remaining.removedLayers) layer(s) the keyboard did not remove and "
                            + "\(remaining.layerNames.count) layer name(s) it did not take")
                }
                if let macros = remaining.macros, let slot = macros.changed.first {
                    throw .failed(
                        "reading back found \(macros.changed.count) macro slot(s) the keyboard did not take, "
                            + "first slot \(slot)")
                }
                holding = Self.holding(readBack, layout: layout, macros: desired.macros, names: desired.layerNames)
            } else {
                holding = Self.holding(device, layout: layout, macros: desired.macros, names: desired.layerNames)
                if plan.removedLayers > 0 {
                    holding = holding.resized(toLayerCount: holding.layerCount - plan.removedLayers, for: layout)
                }
                for (layer, name) in plan.layerNames { holding.setLayerName(name, layer: layer) }
                for write in writes { holding.setAction(write.action, layer: write.layer, key: write.key) }
                for (name, macro) in desired.macros { holding.macros[name] = macro }
            }
            try await driver.save()
        } catch {
            let done = Array(writes.prefix(taken.value))
            let rolledBack = await rollBack(device, written: done, macros: wroteMacros)
            throw Failure(error: error, written: done.count, rolledBack: rolledBack, wroteMacros: wroteMacros)
        }
        var outcome = Outcome(
            writes: writes, previous: previous, macros: plan.macros, verified: verify, saved: true, dryRun: false,
            addedLayers: addedLayers)
        outcome.kept = merge?.kept ?? []
        outcome.uneditedWrites = uneditedWrites
        outcome.removedLayers = plan.removedLayers
        outcome.renamedLayers = plan.layerNames.count
        outcome.holding = holding
        return outcome
    }

    /// What a keyboard holds in the keymap model's terms (bindings it cannot express read as cleared), on all its
    /// layers, its macro slots named after `macros` where they hold the same steps.
    /// - Parameter names: the names to keep when the keyboard holds none (VIA).
    static func holding(
        _ device: DeviceKeymap, layout: PhysicalLayout, macros: [MacroName: Macro], names: [Int: LayerName] = [:]
    ) -> Keymap {
        DevicePull(
            device: device, layout: layout, layerCount: max(device.layers.count, 1), macros: macros, names: names
        ).keymap
    }

    /// For an overwriting merge: how many writes are of keys the user did not edit.
    private static func uneditedWrites(_ writes: [DriverKeyWrite], target: Target) -> Int? {
        guard case .merge(let base, let draft, .overwrite) = target else { return nil }
        return writes.filter { write in
            let cleared = Keymap.clearedAction(layer: write.layer)
            return (base.action(layer: write.layer, key: write.key) ?? cleared)
                == (draft.action(layer: write.layer, key: write.key) ?? cleared)
        }.count
    }

    /// The most conflicts an error message names.
    static let conflictsNamed = 8

    /// `2 key(s) were changed both in the draft and on the keyboard: ...; ...`, with what to do.
    static func conflictMessage(_ conflicts: [PushMerge.Difference]) -> String {
        let named = conflicts.prefix(conflictsNamed).map(\.description).joined(separator: "; ")
        let rest = conflicts.count > conflictsNamed ? "; and \(conflicts.count - conflictsNamed) more" : ""
        return "\(conflicts.count) key(s) were changed both in the draft and on the keyboard since kblinkd last read "
            + "it: \(named)\(rest); nothing was written. Push again with --keep-keyboard to keep the keyboard's "
            + "bindings of those keys, or --overwrite to write the draft's ('kblink keymap diff' shows all three)"
    }

    /// Puts back the bindings, then the macro slots; whether both went back.
    private func rollBack(_ device: DeviceKeymap, written: [DriverKeyWrite], macros: Bool) async -> Bool {
        var rolledBack = true
        do {
            try await driver.rollback(previous: device, written: written, layout: layout)
        } catch {
            rolledBack = false
        }
        if macros, let held = device.macros {
            do {
                try await driver.restore(held)
            } catch {
                rolledBack = false
            }
        }
        return rolledBack
    }
}

/// How many bindings of a push the keyboard has taken, as the driver reports them.
private final class WriteCount: Sendable {
    // A Mutex makes the class Sendable: the driver's progress calls and the push's catch may run on other threads.
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func set(_ value: Int) {
        count.withLock { $0 = value }
    }
}
