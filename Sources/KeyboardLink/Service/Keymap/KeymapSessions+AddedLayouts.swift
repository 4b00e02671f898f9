import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// A layout `AddLayout` taught: the definition as given (what `GetLayout` answers) and the layout it checked into.
struct AddedLayout: Sendable {
    var definition: KeyboardLayoutDefinition
    var layout: PhysicalLayout

    /// The IDs of the keyboards it is for.
    var productIDs: BluetoothHIDKeyboard.ProductIDs {
        .init(vendor: definition.vendorID, product: definition.productID)
    }
}

extension KeymapSessions {
    /// The most layouts `AddLayout` keeps.
    package static let maximumAddedLayouts = 64

    /// Loads the layouts `AddLayout` stored in `directory`; files that do not load (or whose id a user layout
    /// holds) are reported and skipped.
    package func loadAddedLayouts(from directory: String) {
        let store = AddedLayoutStore(directory: directory)
        addedLayoutStore = store
        let loaded = store.load()
        for problem in loaded.problems {
            log(.warning, "added layout \(problem.file) in \(directory) was not loaded: \(problem.reason)")
        }
        for (definition, layout) in loaded.layouts.prefix(Self.maximumAddedLayouts) {
            if userLayouts[layout.id] != nil || PhysicalLayout.builtInIDs.contains(layout.id.rawValue) {
                log(.warning, "added layout \(layout.id) was not loaded: a user or built-in layout has its id")
                continue
            }
            addedLayouts[layout.id] = AddedLayout(definition: definition, layout: layout)
        }
        if !addedLayouts.isEmpty { log(.info, "loaded \(addedLayouts.count) added layout(s) from \(directory)") }
    }

    /// The added layout for a keyboard's IDs, nil when there is none (or the IDs are unknown).
    func addedLayout(matching productIDs: BluetoothHIDKeyboard.ProductIDs?) -> AddedLayout? {
        guard let productIDs else { return nil }
        return addedLayouts.values.first { $0.productIDs == productIDs }
    }

    /// The added layouts, by id (`ListLayouts`).
    package func addedLayoutSummaries() -> [LayoutSummary] {
        addedLayouts.keys.sorted().compactMap { addedLayouts[$0].map { LayoutSummary($0.definition) } }
    }

    /// An added layout's definition (`GetLayout`).
    /// - Throws: `NotFound` naming the layouts there are.
    package func addedLayoutDefinition(_ id: String) throws -> KeyboardLayoutDefinition {
        try addedLayoutEntry(id).definition
    }

    private func addedLayoutEntry(_ id: String) throws -> AddedLayout {
        guard let layoutID = try? LayoutID(id), let added = addedLayouts[layoutID] else {
            let known = addedLayouts.keys.sorted().map(\.rawValue)
            throw KBlinkError.notFound(
                "no layout '\(id.errorExcerpt(limit: 64))' was added"
                    + (known.isEmpty ? " (none was)" : "; added: \(known.joined(separator: ", "))"))
        }
        return added
    }

    /// `AddLayout`: checks the definition whole, stores it atomically, then applies it to every keyboard with its
    /// IDs whose draft holds no edits (publishing `Layout`, `Zones` and the rest of the keymap's properties).
    /// - Returns: what happened to each keyboard with its IDs.
    /// - Throws: ``KBlinkError``: `InvalidArgs` for a definition that does not check (or the id of a built-in or user
    ///   layout), `Conflict` when another added layout has its IDs, `Failed` when it cannot be stored.
    package func addLayout(_ definition: KeyboardLayoutDefinition) async throws -> [LayoutApplication] {
        let layout: PhysicalLayout
        do {
            layout = try definition.physicalLayout()
        } catch {
            throw KBlinkError.invalidArgs("the layout is refused: \(error)")
        }
        if PhysicalLayout.builtInIDs.contains(layout.id.rawValue) || userLayouts[layout.id] != nil {
            throw KBlinkError.invalidArgs(
                "'\(layout.id)' is the id of a \(userLayouts[layout.id] == nil ? "built-in" : "user") layout: give "
                    + "this one another id (kblink layout add FILE --id ID)")
        }
        let added = AddedLayout(definition: definition, layout: layout)
        if let other = addedLayouts.values.first(where: {
            $0.productIDs == added.productIDs && $0.layout.id != layout.id
        }) {
            throw KBlinkError.conflict(
                "layout \(other.layout.id) is for \(Self.hex(added.productIDs)) already: remove it first "
                    + "(kblink layout remove \(other.layout.id))")
        }
        guard addedLayouts[layout.id] != nil || addedLayouts.count < Self.maximumAddedLayouts else {
            throw KBlinkError.invalidArgs(
                "kblinkd keeps at most \(Self.maximumAddedLayouts) added layouts: remove one first (kblink layout remove)"
            )
        }
        guard let store = addedLayoutStore else { throw KBlinkError.failed("kblinkd has no state directory") }
        do {
            if let warning = try store.save(definition, id: layout.id) {
                log(.warning, "layout \(layout.id) was stored, but \(warning); a power loss now might lose it")
            }
        } catch {
            log(.error, "cannot store layout \(layout.id): \(error)")
            throw KBlinkError.failed("cannot store layout \(layout.id): \(error)")
        }
        addedLayouts[layout.id] = added
        log(.notice, "layout \(layout.id) added for \(Self.hex(added.productIDs)) (\(layout.keys.count) keys)")
        var applications: [LayoutApplication] = []
        for address in entries.keys.sorted() {
            guard let entry = entries[address], entry.productIDs == added.productIDs else { continue }
            applications.append(await switchLayout(of: address, to: layout))
        }
        return applications
    }

    /// `RemoveLayout`: forgets an added layout; the keyboards that use it go back to the layout their name suggests.
    /// - Throws: ``KBlinkError``: `NotFound`; `Conflict` while a keyboard's draft with edits uses it (nothing is
    ///   removed then); `Failed` when its file cannot be removed.
    package func removeLayout(_ id: String) async throws -> [LayoutApplication] {
        let added = try addedLayoutEntry(id)
        let users = entries.keys.sorted().filter { entries[$0]?.session.layout.id == added.layout.id }
        for address in users {
            guard let entry = entries[address], entry.session.isDirty else { continue }
            throw KBlinkError.conflict(
                "\(Self.label(entry, address))'s draft has edits on layout \(added.layout.id): push or discard them "
                    + "first (kblink keymap push|discard \(address))")
        }
        guard let store = addedLayoutStore else { throw KBlinkError.failed("kblinkd has no state directory") }
        do {
            if let warning = try store.remove(added.layout.id) {
                log(.warning, "layout \(added.layout.id) was removed, but \(warning)")
            }
        } catch {
            throw KBlinkError.failed("cannot remove layout \(added.layout.id): \(error)")
        }
        addedLayouts[added.layout.id] = nil
        log(.notice, "layout \(added.layout.id) removed")
        var applications: [LayoutApplication] = []
        for address in users {
            guard let entry = entries[address],
                let guessed = try? LayoutID(Self.guessedLayoutID(forName: entry.keyboardName)),
                let layout = layout(guessed)
            else { continue }
            applications.append(await switchLayout(of: address, to: layout))
        }
        return applications
    }

    /// Puts a keyboard's keymap on another layout, with kblink's default keymap for it as base and an empty draft,
    /// unless its draft holds edits (which were made for the keys of the layout it has). The base is no longer what
    /// the keyboard holds, so nothing is re-applied until the next push; the apply-on-connect choice itself stays
    /// (`AddLayout` needs `edit-keymap`, and turning apply on connect off needs `write-firmware`).
    private func switchLayout(of address: BluetoothAddress, to layout: PhysicalLayout) async -> LayoutApplication {
        let label = entries[address].map { Self.label($0, address) } ?? address.description
        let base = defaultKeymap(layout)
        let fresh: KeymapEditSession
        do {
            fresh = try KeymapEditSession(layout: layout, base: base)
        } catch {
            return LayoutApplication(address: address.description, alias: label, outcome: "kept its layout: \(error)")
        }
        do {
            let switched = try await editProfile(address) { session, settings throws(KeymapError) -> Bool in
                guard !session.isDirty else { return false }
                if session.layout == layout { return true }
                session = fresh
                settings = ProfileSettings(applyOnConnect: settings.applyOnConnect)
                return true
            }
            guard switched else {
                let current = entries[address]?.session.layout.id.rawValue ?? "?"
                return LayoutApplication(
                    address: address.description, alias: label,
                    outcome: "kept layout \(current): its draft has edits; push or discard them (kblink keymap "
                        + "push|discard \(address)), then add the layout again")
            }
            log(.info, "the keymap of \(label) is on layout \(layout.id) now")
            return LayoutApplication(address: address.description, alias: label, outcome: LayoutApplication.applied)
        } catch let error as KBlinkError {
            return LayoutApplication(
                address: address.description, alias: label, outcome: "kept its layout: \(error.message)")
        } catch {
            return LayoutApplication(address: address.description, alias: label, outcome: "kept its layout: \(error)")
        }
    }

    private static func label(_ entry: Entry, _ address: BluetoothAddress) -> String {
        entry.keyboardName.isEmpty ? address.description : entry.keyboardName
    }

    private static func hex(_ ids: BluetoothHIDKeyboard.ProductIDs) -> String {
        [ids.vendor, ids.product].map { String($0, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(
            separator: ":")
    }
}
