import Glibc
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension KeymapSessions {
    /// Loads the user's layouts (`*.json` in kblink's format, `*.kle.json`/`*.kle` from keyboard-layout-editor);
    /// files that do not load are reported and skipped. A missing directory has none.
    package func loadUserLayouts(from directory: String) {
        let found = PhysicalLayout.loadUserLayouts(from: directory)
        for problem in found.problems {
            log(.warning, "layout \(problem.file) in \(directory) was not loaded: \(problem.error)")
        }
        for layout in found.layouts {
            userLayouts[layout.id] = layout
        }
        if !found.layouts.isEmpty {
            log(.info, "loaded \(found.layouts.count) user layout(s) from \(directory)")
        }
    }

    /// A layout by id: the user's first, then those `AddLayout` taught, then the built-in ones.
    func layout(_ id: LayoutID) -> PhysicalLayout? {
        if let user = userLayouts[id] { return user }
        if let added = addedLayouts[id] { return added.layout }
        if let known = builtInLayouts[id] { return known }
        guard let builtIn = try? PhysicalLayout.builtIn(id.rawValue) else { return nil }
        builtInLayouts[id] = builtIn
        return builtIn
    }

    /// The default keymap of a layout, made once per layout.
    func defaultKeymap(_ layout: PhysicalLayout) -> Keymap {
        // Only built-in layouts are cached: the others can be replaced while kblinkd runs.
        let cached = userLayouts[layout.id] == nil && addedLayouts[layout.id] == nil
        if cached, let known = defaultKeymaps[layout.id] { return known }
        let keymap = Keymap(defaultsFor: layout)
        if cached { defaultKeymaps[layout.id] = keymap }
        return keymap
    }

    /// The layout a keyboard's name suggests: `aula-f87` for an AULA F87, `vgn-98pro` for a VGN 98Pro or
    /// another 98-key board ("98" in the name), `tkl-ansi` otherwise.
    package static func guessedLayoutID(forName name: String) -> String {
        let words = name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        if words.contains(where: { $0 == "f87" || $0.hasPrefix("f87") }) { return "aula-f87" }
        if words.contains(where: { $0 == "vgn" || $0.hasPrefix("98") || Self.endsWithNumber98($0) }) {
            return "vgn-98pro"
        }
        return "tkl-ansi"
    }

    /// `q98`, `k98`: a model name ending its letters with 98.
    private static func endsWithNumber98(_ word: String) -> Bool {
        guard let first = word.first, first.isLetter else { return false }
        let digits = word.drop(while: { $0.isLetter })
        return digits.hasPrefix("98") && !digits.dropFirst(2).contains(where: \.isNumber)
    }

    /// Opens a keyboard's session: its stored profile when there is one (the profile's layout wins), otherwise a
    /// clean session on the layout the name suggests. A profile that does not parse, is for a layout that is not
    /// known, or whose draft no longer replays is set aside (kept, renamed) and reported; the keyboard then starts
    /// clean. A profile written by a newer kblink is left in place, untouched: the keyboard gets a clean session
    /// that refuses every read and edit while that file is there (see `usable(_:of:)`).
    /// - Returns: the session, or nil when the profile exists but cannot be read (it is left alone, so that a
    ///   later save cannot overwrite it).
    func open(
        _ address: BluetoothAddress, name: String, path: ObjectPath, productIDs: BluetoothHIDKeyboard.ProductIDs? = nil
    ) -> KeymapEditSession? {
        if let entry = entries[address] { return entry.session }
        guard let profileAddress = try? KeyboardAddress(address.description) else { return nil }
        let label = name.isEmpty ? address.description : "\(name) (\(address))"
        var session: KeymapEditSession?
        var settings = ProfileSettings()
        var newerProfile: ProfileStore.NewerProfile?
        do {
            switch try store.load(profileAddress) {
            case .loaded(let profile):
                session = try restore(profile, label: label)
                // A profile set aside starts clean: its settings go with it.
                if session != nil { settings = profile.settings }
            case .notFound:
                break
            case .corrupt(let corrupt):
                log(
                    .error,
                    "the keymap profile of \(label) is corrupt (\(corrupt.reason)); it was set aside as "
                        + "\(corrupt.preservedAt) and the keyboard starts with a clean keymap")
            case .newerSchema(let newer):
                newerProfile = newer
                log(
                    .error,
                    "the keymap profile of \(label), \(newer.path), was written by a newer kblink (schemaVersion "
                        + "\(newer.schemaVersion); this one reads version \(ProfileDocument.currentSchemaVersion)); it "
                        + "is left untouched, and the keymap of this keyboard refuses reads and edits until the newer "
                        + "kblink runs again or the file is moved away")
            }
        } catch {
            log(
                .error,
                "cannot read the keymap profile of \(label): \(error); its keymap is not offered until the file "
                    + "can be read (restart kblinkd then)")
            return nil
        }
        // A layout added for the keyboard's IDs wins over the one its name suggests, and over the profile's while
        // the draft holds no edits (it was saved before the layout was added).
        if let added = addedLayout(matching: productIDs), session?.layout != added.layout,
            session?.isDirty != true, newerProfile == nil
        {
            session = try? KeymapEditSession(layout: added.layout, base: defaultKeymap(added.layout))
            settings = ProfileSettings()
        }
        if session == nil {
            let id = Self.guessedLayoutID(forName: name)
            guard let layoutID = try? LayoutID(id), let layout = layout(layoutID) else { return nil }
            session = try? KeymapEditSession(layout: layout, base: defaultKeymap(layout))
        }
        guard let session else { return nil }
        entries[address] = Entry(
            profileAddress: profileAddress, path: path, session: session, settings: settings,
            newerProfile: newerProfile, keyboardName: name, productIDs: productIDs)
        return session
    }

    /// An entry checked for use. While the keyboard's profile on disk is a newer kblink's, every read and edit is
    /// refused, so that no client takes the clean session for the keyboard's keymap and no save overwrites that
    /// file. The file is looked at again on each call: once it was moved away (or turned out corrupt and was set
    /// aside), the keyboard goes on with its clean session.
    /// - Throws: ``KBlinkError``: `NotSupported` naming the file while it is a newer kblink's; `Failed` when it cannot
    ///   be read, or was replaced by a profile this kblink reads (loaded when the keyboard comes back).
    func usable(_ entry: Entry, of address: BluetoothAddress) throws -> Entry {
        guard let newer = entry.newerProfile else { return entry }
        let current: ProfileStore.LoadResult
        do {
            current = try store.load(entry.profileAddress)
        } catch {
            throw KBlinkError.failed("cannot read the keymap profile \(newer.path): \(error.description)")
        }
        switch current {
        case .newerSchema(let still):
            throw KBlinkError.notSupported(
                "the keymap profile \(still.path) was written by a newer kblink (schemaVersion "
                    + "\(still.schemaVersion); this kblink reads version \(ProfileDocument.currentSchemaVersion)), "
                    + "so it is left untouched and this keyboard's keymap can be neither read nor edited here: run "
                    + "the newer kblink again, or move the file away to start with a clean keymap")
        case .loaded:
            throw KBlinkError.failed(
                "the keymap profile \(newer.path) of a newer kblink was replaced by one this kblink reads; "
                    + "reconnect the keyboard or restart kblinkd to load it")
        case .notFound:
            log(
                .info,
                "the keymap profile \(newer.path) of a newer kblink was moved away; \(address) goes on with a clean "
                    + "keymap")
        case .corrupt(let corrupt):
            log(
                .error,
                "the keymap profile \(corrupt.path) is corrupt (\(corrupt.reason)); it was set aside as "
                    + "\(corrupt.preservedAt) and \(address) goes on with a clean keymap")
        }
        var unlocked = entry
        unlocked.newerProfile = nil
        entries[address] = unlocked
        return unlocked
    }

    /// The session a loaded profile describes, or nil after setting the profile aside.
    /// - Throws: `KeymapError.io` when the profile cannot be used nor set aside.
    private func restore(_ profile: StoredProfile, label: String) throws(KeymapError) -> KeymapEditSession? {
        let reason: String
        if let layout = layout(profile.layout) {
            do {
                return try profile.session(layout: layout)
            } catch {
                reason = "its draft no longer applies: \(error)"
            }
        } else {
            reason = "its layout \(profile.layout) is not known (a user layout that was removed?)"
        }
        let path = store.path(for: profile.address)
        let preserved = try KeymapError.file { () throws(FileError) in
            try FileStore().setAside(path, suffix: ".unusable-\(Int64(time(nil)))")
        }
        log(
            .error,
            "the keymap profile of \(label) cannot be used: \(reason); it was set aside as \(preserved) and the "
                + "keyboard starts with a clean keymap")
        return nil
    }

    /// Forgets a keyboard's session (its profile stays on disk for when it comes back).
    func close(_ address: BluetoothAddress) {
        entries[address] = nil
    }
}
