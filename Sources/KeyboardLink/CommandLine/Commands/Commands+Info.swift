import InsetCore
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkFirmware
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension Commands {
    static let info = Command(
        name: "info", summary: "Show one keyboard's details, firmware and batteries",
        usageLine: "Usage: kblink info DEVICE [--refresh] [--json]",
        details: """
            Shows what kblinkd keeps about the keyboard: identity, firmware, batteries and when they were read.
            The information is cached, so it shows even while the keyboard sleeps.
              --refresh   read it from the keyboard first (the keyboard must be awake; asleep, the cached
                          information is shown and kblink says so)
            JSON: the object of 'kblink list --json' plus vendor {source, id, name}, product {id, version},
            manufacturer, model, serial, firmwareRevision, hardwareRevision, softwareRevision (null when unknown),
            readAt (ISO 8601, null when never read), ageSeconds, notes [text], and with --refresh
            refresh {ok, error}.
            """,
        flags: ["--refresh"]
    ) { context in
        let device = try DeviceArgument.checked(context.arguments.expectPositionals(["DEVICE"])[0])
        let client = try await context.client()
        defer { Task { await client.close() } }
        var keyboard = try await client.keyboard(matching: device)
        let output = context.output
        var status = ExitStatus.success
        var refresh: (ok: Bool, error: String?)?
        if context.arguments.has("--refresh") {
            do {
                try await client.call(KBlinkContract.Keyboard.refreshInfo, on: keyboard, timeout: .seconds(60))
                refresh = (true, nil)
            } catch let error as DBusError where error.name == KBlinkError.notConnected {
                // Asleep: the cached information is shown, but the refresh asked for did not happen.
                refresh = (false, error.message)
                status = .failure
            } catch let error as DBusError {
                refresh = (false, error.message.isEmpty ? error.name.rawValue : error.message)
                status = .failure
            }
            keyboard = try await client.keyboard(matching: keyboard.address)
            if let refresh, !refresh.ok, !output.json {
                output.writeError("kblink: \(refresh.error ?? "refresh failed")")
            }
        }
        let summary = FirmwareSummary(exportedProperty: keyboard.firmware)
        let now = WallClockTime.now()
        if output.json {
            output.json(infoJSON(keyboard, summary, refresh: refresh, now: now))
            return status
        }
        // From here on, text: what the device chose is shown escaped (the JSON above carries it as it is).
        keyboard = keyboard.forDisplay
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
        field("Battery", keyboard.batteryText)
        field("Driver", keyboard.driver)
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
        return status
    }

    /// The `--json` form of `kblink info`.
    static func infoJSON(
        _ keyboard: KeyboardInfo, _ summary: FirmwareSummary, refresh: (ok: Bool, error: String?)?, now: WallClockTime
    ) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if case .object(let base) = keyboard.json { fields = base }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        fields.append(
            (
                "vendor",
                summary.vendorID == nil && summary.vendorName == nil
                    ? .null
                    : .object([
                        ("source", text(summary.vendorSource?.rawValue)), ("id", text(summary.vendorID)),
                        ("name", text(summary.vendorName)),
                    ])
            ))
        fields.append(
            (
                "product",
                summary.productID == nil
                    ? .null : .object([("id", text(summary.productID)), ("version", text(summary.productVersion))])
            ))
        let keys: [(String, DeviceInformationField)] = [
            ("manufacturer", .manufacturer), ("model", .model), ("serial", .serial),
            ("firmwareRevision", .firmwareRevision), ("hardwareRevision", .hardwareRevision),
            ("softwareRevision", .softwareRevision),
        ]
        for (key, field) in keys { fields.append((key, text(summary.strings[field]))) }
        fields.append(("readAt", text(summary.readAt?.iso8601)))
        fields.append(
            (
                "ageSeconds",
                summary.readAt.map { .integer(Int64(max(0, now.seconds(since: $0)).rounded(.down))) } ?? .null
            ))
        fields.append(("notes", .array(summary.notes.map(JSONValue.string))))
        if let refresh {
            fields.append(("refresh", .object([("ok", .bool(refresh.ok)), ("error", text(refresh.error))])))
        }
        return .object(fields)
    }
}
