import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// The keymap edit sessions of the keyboards the daemon exports, with their profiles on disk.
///
/// Every edit goes the same way, one at a time per keyboard: it is applied to a copy of the session, the copy is
/// saved atomically (`ProfileStore`), only then does it replace the session, and the changed properties are
/// published before the caller gets its answer. So an edit that was answered is on disk (a `kill -9` right after
/// the reply loses nothing), and an edit that could not be saved changed nothing, in memory or on disk. An edit
/// whose new file is in place but whose directory could not be synced is made (memory follows the disk) and logged
/// as a durability warning.
package actor KeymapSessions {
    /// Where the sessions' work runs: a queue of their own. A default actor runs on the preferred executor of the task
    /// that calls it, and the bus's method handlers prefer their connection's thread; parsing a profile import or
    /// saving a profile (with its fsyncs) there would keep every other caller waiting (docs/performance.md, section 8).
    private let executor = QueueExecutor(label: "kblinkd.keymaps")

    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// One keyboard's session and where it is saved.
    struct Entry {
        var profileAddress: KeyboardAddress
        var path: ObjectPath
        var session: KeymapEditSession
        /// Apply on connect, and whether the base is on the keyboard.
        var settings = ProfileSettings()
        /// The keyboard's profile file when a newer kblink wrote it: reads and edits are refused while it is there.
        var newerProfile: ProfileStore.NewerProfile?
        /// The keyboard's name (what its layout is guessed from) and alias, for people.
        var keyboardName = ""
        /// Its vendor and product IDs, which a layout added for them (`AddLayout`) matches.
        var productIDs: BluetoothHIDKeyboard.ProductIDs?
    }

    let connection: BusConnection
    let log: @Sendable (LogLevel, String) -> Void
    /// Where profiles are loaded from and saved to; tests swap in one whose writes fail.
    var store: ProfileStore
    /// Layouts loaded from the user's layout directory, by id; they take precedence over built-in ones.
    var userLayouts: [LayoutID: PhysicalLayout] = [:]
    /// Built-in layouts and their default keymaps, made once and shared by every session (copy on write): a
    /// thousand keyboards of one model hold one copy.
    var builtInLayouts: [LayoutID: PhysicalLayout] = [:]
    /// Layouts `AddLayout` taught, by id, and where they are stored (nil until `loadAddedLayouts(from:)`).
    var addedLayouts: [LayoutID: AddedLayout] = [:]
    var addedLayoutStore: AddedLayoutStore?
    var defaultKeymaps: [LayoutID: Keymap] = [:]
    var entries: [BluetoothAddress: Entry] = [:]
    /// Keyboards with an edit in progress, and the edits waiting for them, first come first served.
    private var busy: Set<BluetoothAddress> = []
    private var waiting: [BluetoothAddress: [CheckedContinuation<Void, Never>]] = [:]

    /// Creates the sessions of a daemon.
    /// - Parameters:
    ///   - connection: where the `org.kblink1.Keymap` properties are published.
    ///   - profilesDirectory: the profile store's directory, `<state dir>/profiles`.
    ///   - log: where loading problems (corrupt profiles) are reported.
    package init(
        connection: BusConnection, profilesDirectory: String, log: @escaping @Sendable (LogLevel, String) -> Void
    ) {
        self.connection = connection
        self.store = ProfileStore(directory: profilesDirectory)
        self.log = log
    }

    /// A copy of a keyboard's session, nil when the keyboard has none or its profile is a newer kblink's (so that
    /// nothing pushes or re-applies a clean keymap in its place).
    package func session(for address: BluetoothAddress) -> KeymapEditSession? {
        (try? entry(address))?.session
    }

    /// A keyboard's profile settings, nil when the keyboard has no session or its profile is a newer kblink's.
    package func settings(for address: BluetoothAddress) -> ProfileSettings? {
        (try? entry(address))?.settings
    }

    /// Who set each of the keyboard's current macros (nil for one without an owner); empty without a session.
    package func macroOwners(for address: BluetoothAddress) -> [UInt32?] {
        guard let entry = try? entry(address) else { return [] }
        return entry.session.macros.keys.map { entry.settings.macroOwners[$0.rawValue] }
    }

    /// The keyboards that have a session.
    package var addresses: [BluetoothAddress] { entries.keys.sorted() }

    /// Whether the keyboard at `address` has a keymap (it is paired and kblinkd knows its layout).
    package func hasKeymap(_ address: BluetoothAddress) -> Bool { entries[address] != nil }

    /// Replaces the profile store (tests inject one whose writes fail).
    func replaceStore(_ store: ProfileStore) {
        self.store = store
    }

    // MARK: Reading and editing

    /// Reads from a keyboard's session.
    /// - Throws: ``KBlinkError``: `NotFound` when the keyboard has no session, `NotSupported` while its profile is a
    ///   newer kblink's, the mapped `KeymapError` otherwise.
    package func read<Result: Sendable>(
        _ address: BluetoothAddress, _ body: @Sendable (KeymapEditSession) throws(KeymapError) -> Result
    ) throws -> Result {
        let entry = try self.entry(address)
        do {
            return try body(entry.session)
        } catch {
            throw error.kblinkError
        }
    }

    /// Applies an edit to a keyboard's session, saves the profile, then publishes the changed properties.
    ///
    /// Edits of one keyboard run one after another in the order they arrive here. When `body` throws, or the
    /// profile cannot be saved, the session and the profile file stay as they were.
    /// - Throws: ``KBlinkError``: the mapped `KeymapError` for an invalid edit, `org.kblink1.Error.Failed` when the
    ///   profile could not be written, `NotFound` when the keyboard has no session, `NotSupported` while its
    ///   profile is a newer kblink's (which is never overwritten).
    @discardableResult
    package func edit<Result: Sendable>(
        _ address: BluetoothAddress, _ body: @Sendable (inout KeymapEditSession) throws(KeymapError) -> Result
    ) async throws -> Result {
        try await editProfile(address) { session, _ throws(KeymapError) in try body(&session) }
    }

    /// Like `edit(_:_:)`, for edits that change the profile's settings too (a push sets `baseOnDevice`, writing
    /// `ApplyOnConnect` sets `applyOnConnect`): both are saved together, or neither is.
    @discardableResult
    package func editProfile<Result: Sendable>(
        _ address: BluetoothAddress,
        _ body: @Sendable (inout KeymapEditSession, inout ProfileSettings) throws(KeymapError) -> Result
    ) async throws -> Result {
        await acquire(address)
        let result: Result
        do {
            result = try commit(address, body)
        } catch {
            release(address)
            throw error
        }
        await publish(address)
        release(address)
        return result
    }

    /// The synchronous part of an edit: apply to a copy, save, keep.
    private func commit<Result>(
        _ address: BluetoothAddress,
        _ body: (inout KeymapEditSession, inout ProfileSettings) throws(KeymapError) -> Result
    ) throws -> Result {
        var entry = try self.entry(address)
        var session = entry.session
        var settings = entry.settings
        let result: Result
        do {
            result = try body(&session, &settings)
        } catch {
            throw error.kblinkError
        }
        // Nothing to save when the edit changed nothing that is stored (setting a key to what it already does).
        guard
            session.draftRecord != entry.session.draftRecord || session.base != entry.session.base
                || settings != entry.settings
        else { return result }
        let durabilityWarning: KeymapError?
        do {
            durabilityWarning = try store.save(session, for: entry.profileAddress, settings: settings)
        } catch {
            log(.error, "cannot save the keymap profile of \(address): \(error)")
            throw error.notSavedError
        }
        // The new file replaced the old one: the change is made, and memory must hold what the disk holds. Only
        // its surviving a power loss is in doubt, which is the administrator's business, not the caller's.
        if let durabilityWarning {
            log(
                .warning,
                "the keymap profile of \(address) was saved, but \(durabilityWarning.description); the change is "
                    + "in place, but a power loss in the next seconds might bring back the previous profile")
        }
        entry.session = session
        entry.settings = settings
        entries[address] = entry
        return result
    }

    private func entry(_ address: BluetoothAddress) throws -> Entry {
        guard let entry = entries[address] else {
            throw KBlinkError.notFound("keyboard \(address) has no keymap session (it is no longer known)")
        }
        return try usable(entry, of: address)
    }

    // MARK: Publishing

    /// Sets every `org.kblink1.Keymap` property that edits change to the session's current value, together: the
    /// object server emits one `PropertiesChanged` with those that differ (none when nothing does), so that one
    /// edit is one signal.
    private func publish(_ address: BluetoothAddress) async {
        guard let entry = entries[address] else { return }
        // The object may have been unexported meanwhile (the keyboard went away): nothing to tell then.
        try? await connection.setProperties(
            Self.changingProperties(of: entry.session, settings: entry.settings), of: KBlinkContract.Keymap.interface,
            at: entry.path)
    }

    /// The properties that edits change, with their values for a session.
    static func changingProperties(of session: KeymapEditSession, settings: ProfileSettings)
        -> [KBlinkPropertyAssignment]
    {
        typealias Keymap = KBlinkContract.Keymap
        return [
            Keymap.layoutProperty.assigned(session.layout.id.rawValue),
            Keymap.zonesProperty.assigned(session.zones.map(\.rawValue)),
            Keymap.applyOnConnectProperty.assigned(settings.applyOnConnect),
            Keymap.currentZoneProperty.assigned(session.currentZone.rawValue),
            Keymap.layersProperty.assigned(UInt32(clamping: session.layerCount)),
            Keymap.canUndoProperty.assigned(session.canUndo),
            Keymap.canRedoProperty.assigned(session.canRedo),
            Keymap.dirtyProperty.assigned(session.isDirty),
            KBlinkPropertyAssignment(Keymap.macrosProperty.declaration, macrosValue(session)),
            Keymap.baseOriginProperty.assigned(settings.baseOrigin.rawValue),
            Keymap.baseSinceProperty.assigned(UInt64(clamping: max(0, settings.baseSince ?? 0))),
            Keymap.layerNamesProperty.assigned(session.layerNames),
        ]
    }

    /// The `Macros` property (`a{ss}`), sorted by name: the names only, each text withheld (empty). The property
    /// reaches everyone (`Get`, `GetAll`, `GetManagedObjects`, `PropertiesChanged`), and a macro may type a
    /// password; `GetMacros` gives the text to callers allowed `org.kblink1.read-macros`.
    static func macrosValue(_ session: KeymapEditSession) -> DBusValue {
        .dictionary(
            key: .string, value: .string,
            session.macros.keys.map(\.rawValue).sorted().map {
                DBusDictionaryEntry(key: .string($0), value: .string(""))
            })
    }

    // MARK: One edit at a time per keyboard

    private func acquire(_ address: BluetoothAddress) async {
        if busy.insert(address).inserted { return }
        await withCheckedContinuation { continuation in
            waiting[address, default: []].append(continuation)
        }
    }

    /// Hands the keyboard to the next waiting edit (which then owns it), or marks it free.
    private func release(_ address: BluetoothAddress) {
        guard var queue = waiting[address], !queue.isEmpty else {
            busy.remove(address)
            return
        }
        let next = queue.removeFirst()
        waiting[address] = queue.isEmpty ? nil : queue
        next.resume()
    }
}
