import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension Commands {
    static let info = Command.answering(
        name: "info", summary: "Show one keyboard's details, firmware and batteries",
        usageLine: "Usage: kblink info DEVICE [--refresh] [--json]",
        details: """
            Shows what kblinkd keeps about the keyboard: identity, firmware, batteries and when they were read.
            The information is cached, so it shows even while the keyboard sleeps.
              --refresh   read it from the keyboard first (the keyboard must be awake; asleep, the cached
                          information is shown and kblink says so)
            JSON: the object of 'kblink list --json' plus vendor {source, id, name}, product {id, version},
            manufacturer, model, serial, firmwareRevision, hardwareRevision, softwareRevision (null when unknown),
            readAt (ISO 8601, null when never read), ageSeconds, notes [text], heals [{time, step,
            outcome}] (the last healing steps, newest last), reconnectTime {lastMilliseconds, medianMilliseconds,
            count}, studioLock (locked, unlocked, unknown; null when not a ZMK Studio keyboard), and with
            --refresh refresh {ok, error}.
            """,
        flags: ["--refresh"]
    ) { context in
        let device = try DeviceArgument.checked(context.arguments.expectPositionals(["DEVICE"])[0])
        let client = try await context.client()
        defer { Task { await client.close() } }
        var keyboard = try await client.keyboard(matching: device)
        var refresh: InfoResult.Refresh?
        if context.arguments.has("--refresh") {
            do {
                try await client.call(KBlinkContract.Keyboard.refreshInfo, on: keyboard, timeout: .seconds(60))
                refresh = InfoResult.Refresh(ok: true, error: nil)
            } catch let error as KBlinkError where error.code == .notConnected {
                // Asleep: the cached information is shown, but the refresh asked for did not happen.
                refresh = InfoResult.Refresh(ok: false, error: error.message)
            } catch let error as any DBusErrorRepresentable {
                let error = error.dbusError
                refresh = InfoResult.Refresh(
                    ok: false, error: error.message.isEmpty ? error.name.rawValue : error.message)
            }
            keyboard = try await client.keyboard(matching: keyboard.address)
        }
        let health = try await client.healthReport(of: keyboard)
        // A kblinkd without the property (an older one) says nothing of the lock.
        let studioLock =
            (try? await client.keyboardProxy(keyboard).property(KBlinkContract.Keyboard.studioLockProperty))
            ?? .notStudio
        return InfoResult(
            keyboard, health: health, studioLock: studioLock, refresh: refresh, now: WallClockTime.now())
    }
}

/// `kblink info`: the keyboard of `kblink list` and what kblinkd read of its firmware.
struct InfoResult: CommandResult {
    /// How a `--refresh` went.
    struct Refresh: Encodable, Sendable {
        let ok: Bool
        let error: String?
    }

    /// Who made the keyboard.
    struct Vendor: Encodable, Sendable {
        let source: String?
        let id: String?
        let name: String?
    }

    /// The product's identity.
    struct Product: Encodable, Sendable {
        let id: String?
        let version: String?
    }

    /// The fields after the keyboard's, in the order `--json` shows them.
    struct Details: Encodable, Sendable {
        let vendor: Vendor?
        let product: Product?
        let manufacturer: String?
        let model: String?
        let serial: String?
        let firmwareRevision: String?
        let hardwareRevision: String?
        let softwareRevision: String?
        /// ISO 8601.
        let readAt: String?
        let ageSeconds: Int?
        let notes: [String]
    }

    let keyboard: KeyboardInfo
    let details: Details
    /// Its health, the last heals and reconnect times.
    let health: KeyboardHealthReport
    /// A ZMK Studio keyboard's lock state (`StudioLock`).
    let studioLock: StudioLock
    /// Present with `--refresh` only.
    let refresh: Refresh?
    /// When the result was made (the text says how long ago the information was read).
    let now: WallClockTime

    init(
        _ keyboard: KeyboardInfo, health: KeyboardHealthReport, studioLock: StudioLock, refresh: Refresh?,
        now: WallClockTime
    ) {
        self.keyboard = keyboard
        self.health = health
        self.studioLock = studioLock
        self.refresh = refresh
        self.now = now
        let summary = FirmwareSummary(exportedProperty: keyboard.firmware)
        details = Details(
            vendor: summary.vendorID == nil && summary.vendorName == nil
                ? nil
                : Vendor(source: summary.vendorSource?.rawValue, id: summary.vendorID, name: summary.vendorName),
            product: summary.productID.map { Product(id: $0, version: summary.productVersion) },
            manufacturer: summary.strings[.manufacturer], model: summary.strings[.model],
            serial: summary.strings[.serial], firmwareRevision: summary.strings[.firmwareRevision],
            hardwareRevision: summary.strings[.hardwareRevision],
            softwareRevision: summary.strings[.softwareRevision], readAt: summary.readAt?.iso8601,
            ageSeconds: summary.readAt.map { Int(max(0, now.seconds(since: $0)).rounded(.down)) },
            notes: summary.notes)
    }

    /// A refresh asked for that did not happen is a failure (the cached information is still shown).
    var exitStatus: ExitStatus { refresh?.ok == false ? .failure : .success }

    private enum CodingKeys: String, CodingKey { case studioLock, refresh }

    /// The keyboard's keys, then the details', then `refresh` when asked for: one flat object.
    func encode(to encoder: any Encoder) throws {
        try keyboard.encode(to: encoder)
        try details.encode(to: encoder)
        try HealthDetails(health).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(studioLock == .notStudio ? nil : studioLock.rawValue, forKey: .studioLock)
        if let refresh { try container.encode(refresh, forKey: .refresh) }
    }

    func writeText(to output: Output) {
        if let refresh, !refresh.ok {
            output.writeError("kblink: \(refresh.error ?? "refresh failed")")
        }
        // What the device chose is shown escaped (the JSON carries it as it is).
        let keyboard = keyboard.forDisplay
        let shownSummary = FirmwareSummary(exportedProperty: keyboard.firmware)
        output.line(output.bold(keyboard.alias) + (keyboard.alias == keyboard.name ? "" : " (\(keyboard.name))"))
        func field(_ label: String, _ value: String?) {
            guard let value else { return }
            let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
            output.line("  \((label + ":").padding(to: 12))\(lines.first ?? "")")
            for line in lines.dropFirst() { output.line("  " + "".padding(to: 12) + line) }
        }
        field("Address", keyboard.address)
        field(
            "Connected",
            "\(keyboard.connected ? output.green("yes") : "no")   Paired: \(keyboard.paired ? "yes" : "no")   Trusted: \(keyboard.trusted ? "yes" : "no")"
        )
        field(
            "Health",
            keyboard.health.shown(in: output)
                + (health.detail.isEmpty ? "" : " — " + health.detail.escapedForTerminalLine))
        if let last = health.lastReconnectTime, let median = health.medianReconnectTime {
            field(
                "Reconnect",
                "input device \(last) ms after the link came up (median \(median) ms of the last "
                    + "\(health.reconnectTimes.count))")
        }
        for heal in health.heals.suffix(5) {
            field(
                "Heal",
                "\(WallClockTime(secondsSince1970: heal.time).iso8601)  \(heal.step): "
                    + heal.outcome.escapedForTerminalLine)
        }
        field("Battery", keyboard.batteryText)
        field("Driver", keyboard.driver)
        switch studioLock {
        case .notStudio: break
        case .locked: field("Studio", output.yellow("locked") + " — press its &studio_unlock key to edit its keymap")
        case .unlocked: field("Studio", "unlocked")
        case .unknown: field("Studio", "lock state unknown (not connected)")
        }
        field("Vendor", shownSummary.vendorText)
        field("Product", shownSummary.productText)
        field("Maker", shownSummary.strings[.manufacturer])
        field("Model", shownSummary.strings[.model])
        field("Serial", shownSummary.strings[.serial])
        field("Firmware", shownSummary.strings[.firmwareRevision])
        field("Hardware", shownSummary.strings[.hardwareRevision])
        field("Software", shownSummary.strings[.softwareRevision])
        field(
            "Read",
            shownSummary.readText(now: now)
                ?? "never (wake the keyboard, then run 'kblink info \(keyboard.address) --refresh')")
        for note in shownSummary.notes {
            field("Note", output.yellow(note))
        }
    }
}
