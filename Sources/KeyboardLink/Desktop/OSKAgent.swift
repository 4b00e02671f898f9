import Glibc
import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkSupport

/// The user-session agent behind `kblink osk-agent`: follows kblinkd's `HardwareKeyboardAttached` and puts the
/// desktop's on-screen keyboard away while a hardware keyboard is in use.
///
/// - GNOME family (squeekboard, Phosh, GNOME): on attach, `screen-keyboard-enabled` is set false when it is true,
///   and the value it had is remembered; on detach it is put back, unless the user changed the key by hand in the
///   meantime (then their change stays). Nothing is written when nothing changes (only on transitions).
/// - squeekboard (`sm.puri.OSK0`): `SetVisible(false)` on attach, when the name is owned.
/// - KWin: the virtual keyboard's `active` set false on attach (never `enabled`, which KWin saves in kwinrc).
///
/// The agent acts on changes of kblinkd's flag (whose grace period already keeps a keyboard that drops for a moment
/// from counting as gone). What it did is kept in a state file, so a restarted agent neither acts twice nor loses
/// the value to put back. kblinkd, squeekboard and KWin may come and go: the agent follows their names.
package actor OSKAgent {
    /// What reaches the agent's loop.
    enum Event: Sendable {
        case kblinkOwner(BusName?)
        case kblinkChanged
        case osk0Owner(BusName?)
        case kwinOwner(BusName?)
        case ended(String)
    }

    let configuration: OSKAgentConfiguration
    let log: @Sendable (String) -> Void
    var state = OSKAgentState()
    var session: BusConnection?
    var system: BusConnection?
    var kblinkOwner: BusName?
    var osk0Owner: BusName?
    var kwinOwner: BusName?
    /// Whether the agent said what kblinkd reports since kblinkd (re)appeared.
    var announced = false

    /// An agent; `log` receives one line per thing it does or would do.
    package init(configuration: OSKAgentConfiguration, log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.log = log
    }

    /// Runs until the task is cancelled or a bus goes away.
    /// - Throws: ``DBusError`` when a bus cannot be reached at start, or when one closes.
    package func run() async throws {
        do {
            state = try OSKAgentState.load(from: configuration.statePath)
        } catch {
            log("cannot read \(configuration.statePath) (\(error)); starting afresh")
        }
        let session = try await BusConnection.connect(to: configuration.sessionBus, label: "kblink.osk-agent.session")
        let system = try await BusConnection.connect(to: configuration.kblinkBus, label: "kblink.osk-agent.system")
        self.session = session
        self.system = system
        defer {
            Task {
                await session.close()
                await system.close()
            }
        }
        let (events, continuation) = AsyncStream<Event>.makeStream()
        let changes = try await system.subscribe(
            to: MatchRule(
                sender: KBlink.service, path: KBlink.managerPath, interface: .properties,
                member: "PropertiesChanged", arg0: KBlink.managerInterface.rawValue))
        let owners = try await system.ownerChanges(of: KBlink.service)
        let osk0 = try await session.ownerChanges(of: OSKDesktopNames.osk0Name)
        let kwin = try await session.ownerChanges(of: OSKDesktopNames.kwinName)
        let feeders = [
            Task {
                for await owner in owners { continuation.yield(.kblinkOwner(owner)) }
                continuation.yield(.ended("the bus kblinkd is on closed"))
            },
            Task {
                for await message in changes
                where message.body.count == 3
                    && message.body[1].stringDictionary?[
                        KBlinkContract.Manager.hardwareKeyboardAttachedProperty.name
                            .rawValue] != nil
                {
                    continuation.yield(.kblinkChanged)
                }
            },
            Task {
                for await owner in osk0 { continuation.yield(.osk0Owner(owner)) }
                continuation.yield(.ended("the session bus closed"))
            },
            Task {
                for await owner in kwin { continuation.yield(.kwinOwner(owner)) }
            },
        ]
        defer { for feeder in feeders { feeder.cancel() } }
        try await withTaskCancellationHandler {
            for await event in events {
                if case .ended(let reason) = event { throw DBusError.disconnected(reason) }
                await handle(event)
            }
        } onCancel: {
            continuation.finish()
        }
    }

    func handle(_ event: Event) async {
        switch event {
        case .kblinkOwner(let owner):
            if owner == nil, kblinkOwner != nil { log("kblinkd left the bus; keeping things as they are") }
            kblinkOwner = owner
            announced = false
            if owner != nil { await follow() }
        case .kblinkChanged:
            await follow()
        case .osk0Owner(let owner):
            osk0Owner = owner
            if owner != nil, configuration.usesOSK0, state.applied == true { await hideOSK0() }
        case .kwinOwner(let owner):
            kwinOwner = owner
            if owner != nil, configuration.usesKWin, state.applied == true { await deactivateKWin() }
        case .ended:
            break
        }
    }

    /// Reads kblinkd's flag and applies it when it differs from what was applied last.
    func follow() async {
        guard let system else { return }
        let manager = DBusProxy(
            connection: system, destination: KBlink.service, path: KBlink.managerPath,
            interface: KBlink.managerInterface)
        let attached: Bool
        do {
            attached = try await manager.property(
                KBlinkContract.Manager.hardwareKeyboardAttachedProperty.name, as: Bool.self)
        } catch {
            log("cannot read kblinkd's HardwareKeyboardAttached: \(error)")
            return
        }
        if !announced {
            announced = true
            log("kblinkd says " + (attached ? "a hardware keyboard is attached" : "no hardware keyboard is attached"))
        }
        guard attached != state.applied else { return }
        // The first state seen, "not attached", has nothing to undo.
        if attached || state.applied != nil {
            log(attached ? "putting the on-screen keyboard away" : "letting the on-screen keyboard back")
        }
        if attached { await attach() } else { await detach() }
        state.applied = attached
        saveState()
    }

    func attach() async {
        if configuration.usesGSettings, let database = dconfDatabase {
            do {
                let current = try database.read(OSKDesktopNames.screenKeyboardPath)
                if current.effective(default: OSKDesktopNames.screenKeyboardDefault) == true {
                    try await write(false, replacing: current)
                    state.previousScreenKeyboard = current
                } else {
                    log("\(OSKDesktopNames.screenKeyboardKey) is \(current): nothing to put away")
                    state.previousScreenKeyboard = nil
                }
            } catch {
                log("cannot set \(OSKDesktopNames.screenKeyboardKey): \(error)")
            }
        }
        if configuration.usesOSK0, osk0Owner != nil { await hideOSK0() }
        if configuration.usesKWin, kwinOwner != nil { await deactivateKWin() }
    }

    func detach() async {
        guard configuration.usesGSettings, let database = dconfDatabase, let previous = state.previousScreenKeyboard
        else { return }
        state.previousScreenKeyboard = nil
        do {
            let current = try database.read(OSKDesktopNames.screenKeyboardPath)
            guard current == .boolean(false) else {
                log(
                    "\(OSKDesktopNames.screenKeyboardKey) is \(current), set by hand while the keyboard was attached: "
                        + "keeping it")
                return
            }
            switch previous {
            case .boolean(let value): try await write(value, replacing: current)
            case .unset: try await write(nil, replacing: current)
            case .other: log("\(OSKDesktopNames.screenKeyboardKey) was \(previous) before: leaving it false")
            }
        } catch {
            log("cannot put \(OSKDesktopNames.screenKeyboardKey) back: \(error)")
        }
    }

    /// Writes the key (nil: resets it), or says what it would write.
    func write(_ value: Bool?, replacing current: DconfValue) async throws {
        let text = value.map { $0 ? "true" : "false" } ?? "its default (reset)"
        let line =
            "\(OSKDesktopNames.screenKeyboardSchema) \(OSKDesktopNames.screenKeyboardKey) \(text) (was \(current))"
        if configuration.dryRun {
            log("would set " + line)
            return
        }
        guard let session else { return }
        try await DconfDatabase.write(
            DconfChangeset(key: OSKDesktopNames.screenKeyboardPath, value: value), on: session)
        log("set " + line)
    }

    func hideOSK0() async {
        if configuration.dryRun {
            log("would call \(OSKDesktopNames.osk0Interface).SetVisible(false)")
            return
        }
        guard let session else { return }
        do {
            try await DBusProxy(
                connection: session, destination: OSKDesktopNames.osk0Name, path: OSKDesktopNames.osk0Path,
                interface: OSKDesktopNames.osk0Interface
            ).call("SetVisible", [.boolean(false)])
            log("called \(OSKDesktopNames.osk0Interface).SetVisible(false)")
        } catch {
            log("\(OSKDesktopNames.osk0Interface).SetVisible(false) failed: \(error)")
        }
    }

    func deactivateKWin() async {
        if configuration.dryRun {
            log("would set \(OSKDesktopNames.kwinVirtualKeyboardInterface) active false")
            return
        }
        guard let session else { return }
        do {
            try await DBusProxy(
                connection: session, destination: OSKDesktopNames.kwinName,
                path: OSKDesktopNames.kwinVirtualKeyboardPath, interface: OSKDesktopNames.kwinVirtualKeyboardInterface
            ).setProperty("active", to: .boolean(false))
            log("set \(OSKDesktopNames.kwinVirtualKeyboardInterface) active false")
        } catch {
            log("cannot set \(OSKDesktopNames.kwinVirtualKeyboardInterface) active false: \(error)")
        }
    }

    /// The user's dconf database, when GSettings is in use here (the schema is installed).
    var dconfDatabase: DconfDatabase? {
        guard let path = configuration.dconfDatabasePath, OSKDesktop.schemaDirectory(configuration) != nil else {
            return nil
        }
        return DconfDatabase(path: path)
    }

    func saveState() {
        guard !configuration.dryRun else { return }
        do {
            try state.save(to: configuration.statePath)
        } catch {
            log("cannot save \(configuration.statePath): \(error)")
        }
    }
}
