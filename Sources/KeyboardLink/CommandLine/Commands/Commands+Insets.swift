import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

extension Commands {
    static let insets = Command(
        name: "insets", summary: "Compute the soft-keyboard inset for a window (the layout core)",
        usageLine:
            "Usage: kblink insets --screen WxH [--window X,Y,W,H] [--keyboard X,Y,W,H] [--event show|change|hide]\n"
            + "                     [--safe-bottom N] [--hardware-keyboard auto|yes|no] [--focused X,Y,W,H]\n"
            + "                     [--follows-undocked] [--dismiss-padding N] [--reserve-bar] [--duration S]\n"
            + "                     [--curve N] [--top-limit N] [--watch] [--picture] [--local] [--json]",
        details: """
            Prints mode, overlap, reserved inset, guide, dismiss threshold and the focused field's slide.
            With --hardware-keyboard auto (the default) kblinkd's live state decides; without kblinkd (or with
            --local) the answer is computed here and the hardware keyboard is assumed absent.
            --watch prints a new answer whenever kblinkd's hardware-keyboard state changes; --picture draws the
            screen, window, keyboard and reserved band.
            JSON: {source: daemon|local, hardwareKeyboardAssumed, answer: {mode, event, overlap, inset, guide,
            guideTop, guideHeight, dismissThreshold, slide, keyboard, hardwareKeyboard, nearEdges, animation}}
            (ResolveInsets' answer, its keys in camelCase like every kblink JSON key).
            --picture fits the terminal's width and draws the numbers above: '#' the focused field after the
            slide, ':' where it was.
            """,
        flags: InsetsArguments.flags, options: InsetsArguments.options
    ) { context in
        _ = try context.arguments.expectPositionals([])
        let request = try InsetsArguments.request(context.arguments)
        let output = context.output
        let choice = try InsetsArguments.hardwareKeyboard(context.arguments)
        let client: KBlinkClient? = context.arguments.has("--local") ? nil : try? await context.client()
        defer { if let client { Task { await client.close() } } }
        if client == nil && context.arguments.has("--watch") {
            throw KBlinkClient.Failure.daemonNotRunning(bus: "given")
        }

        @Sendable func answer() async throws -> (answer: [String: DBusValue], source: String) {
            if let client {
                let reply = try await client.manager.call(KBlinkContract.Manager.resolveInsets, request)
                return (reply, "daemon")
            }
            let local = try InsetRequestCodec.request(from: request, hardwareKeyboard: false)
            let computed = InsetResolver.resolve(local)
            return (try [String: DBusValue](dbusValue: InsetRequestCodec.dictionary(from: computed)), "local")
        }

        @Sendable func show(_ result: (answer: [String: DBusValue], source: String)) throws {
            let assumed = result.source == "local" && choice == .auto
            if output.json {
                output.json(
                    .object([
                        ("source", .string(result.source)), ("hardwareKeyboardAssumed", .bool(assumed)),
                        (
                            "answer",
                            .object(
                                InsetRequestCodec.answerFields(result.answer).map {
                                    ($0.key.kebabToCamel, JSONValue($0.value))
                                })
                        ),
                    ]))
                return
            }
            if assumed {
                output.line(
                    output.dim(
                        context.arguments.has("--local")
                            ? "(computed here, as --local asks: no hardware keyboard is assumed)"
                            : "(kblinkd not reachable: computed here, assuming no hardware keyboard)"))
            }
            for (key, value) in InsetRequestCodec.answerFields(result.answer) {
                output.line("\((key + ":").padding(to: 19))\(Self.insetText(key, value))")
            }
            if context.arguments.has("--picture") {
                let local = try InsetRequestCodec.request(
                    from: request, hardwareKeyboard: result.answer["hardware-keyboard"]?.boolValue ?? false)
                // The picture draws the numbers printed above: kblinkd's answer when it gave one.
                var drawn = InsetResolver.resolve(local)
                if case .double(let inset)? = result.answer["inset"]?.unwrapped { drawn.reservedInset = inset }
                if case .double(let slide)? = result.answer["slide"]?.unwrapped { drawn.slide = slide }
                let size = InsetPicture.size(
                    fitting: output.isTerminal ? output.io.terminalColumns() : 0, screen: local.screen)
                let picture = InsetPicture(
                    request: local, answer: drawn, columns: size.columns, rows: size.rows, usesColor: output.color)
                output.line(picture.render())
            }
        }

        // With --watch, subscribed before the first answer: a change between that answer and the subscription
        // would otherwise go unseen until the next one.
        let watched: SignalStream?
        if context.arguments.has("--watch"), let client {
            watched = try await client.connection.subscribe(
                to: MatchRule(
                    sender: KBlink.service, path: KBlink.managerPath, interface: .properties,
                    member: MemberName("PropertiesChanged"), arg0: KBlink.managerInterface.rawValue))
        } else {
            watched = nil
        }
        try show(try await answer())
        guard let changes = watched, let client else { return .success }
        do {
            _ = try await untilInterrupted(output.io) {
                try await whileDaemonRuns(client) {
                    for await message in changes {
                        guard message.body.count == 3,
                            message.body[1].stringDictionary?["HardwareKeyboardAttached"] != nil
                        else { continue }
                        if !output.json { output.line("") }
                        try show(try await answer())
                    }
                    if !Task.isCancelled { throw DaemonWentAway() }
                }
            }
        } catch is DaemonWentAway {
            return output.daemonWentAway()
        }
        return .success
    }

    static func insetText(_ key: String, _ value: DBusValue) -> String {
        func number(_ value: DBusValue) -> String {
            guard case .double(let number) = value.unwrapped else { return JSONValue(value).rendered() }
            return number == number.rounded() ? String(Int64(number)) : String(number)
        }
        switch value.unwrapped {
        case .double: return number(value)
        case .boolean(let flag): return flag ? "yes" : "no"
        case .string(let text): return text
        case .array(.double, let items): return items.map(number).joined(separator: ",")
        case .array(_, let items):
            return items.isEmpty ? "none" : items.compactMap(\.stringValue).joined(separator: ",")
        default:
            if let animation = value.stringDictionary {
                let from = animation["from"].map(number) ?? "?"
                let to = animation["to"].map(number) ?? "?"
                let duration = animation["duration"].map(number) ?? "0"
                return duration == "0" ? "\(from) -> \(to) at once" : "\(from) -> \(to) over \(duration) s"
            }
            return JSONValue(value).rendered()
        }
    }
}
