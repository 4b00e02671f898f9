import InsetCore
import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// `kblink insets` options turned into a `ResolveInsets` request dictionary, so the daemon and the local
/// fallback compute from exactly the same request.
package enum InsetsArguments {
    /// Flags `kblink insets` takes.
    package static let flags: Set<String> = ["--follows-undocked", "--watch", "--picture", "--reserve-bar", "--local"]
    /// Options with values `kblink insets` takes.
    package static let options: Set<String> = [
        "--screen", "--window", "--keyboard", "--event", "--safe-bottom", "--hardware-keyboard", "--focused",
        "--dismiss-padding", "--duration", "--curve", "--top-limit",
    ]

    /// What `--hardware-keyboard` says.
    package enum HardwareKeyboardChoice: String, Sendable {
        case auto, yes, no
    }

    /// Reads `--hardware-keyboard`.
    /// - Throws: ``ParsedArguments/UsageError``.
    package static func hardwareKeyboard(_ arguments: ParsedArguments) throws -> HardwareKeyboardChoice {
        let text = arguments.value("--hardware-keyboard") ?? "auto"
        guard let choice = HardwareKeyboardChoice(rawValue: text) else {
            throw ParsedArguments.UsageError("--hardware-keyboard is auto, yes or no; got '\(text)'")
        }
        return choice
    }

    /// Builds the request; `hardware-keyboard` is set only for `yes` or `no`.
    /// - Throws: ``ParsedArguments/UsageError`` naming the bad option and its expected form.
    package static func request(_ arguments: ParsedArguments) throws -> [String: DBusValue] {
        func rect(_ option: String) throws -> DBusValue? {
            guard let text = arguments.value(option) else { return nil }
            do {
                let value = try GeometryArgument.rect(text, option: option)
                return InsetRequestCodec.rectValue(value)
            } catch {
                throw ParsedArguments.UsageError(error.description)
            }
        }
        func number(_ option: String, allowsNegative: Bool = false) throws -> DBusValue? {
            guard let text = arguments.value(option) else { return nil }
            do {
                return .double(try GeometryArgument.number(text, option: option, allowsNegative: allowsNegative))
            } catch {
                throw ParsedArguments.UsageError(error.description)
            }
        }
        guard let screenText = arguments.value("--screen") else {
            throw ParsedArguments.UsageError("--screen WxH is required, for example --screen 1024x1366")
        }
        let screen: Size
        do {
            screen = try GeometryArgument.size(screenText, option: "--screen")
        } catch {
            throw ParsedArguments.UsageError(error.description)
        }
        var request: [String: DBusValue] = ["screen": .array(.double, [.double(screen.width), .double(screen.height)])]
        request["window"] = try rect("--window")
        request["safe-bottom"] = try number("--safe-bottom")
        request["focused"] = try rect("--focused")
        request["dismiss-padding"] = try number("--dismiss-padding", allowsNegative: true)
        request["top-limit"] = try number("--top-limit")
        if let keyboard = try rect("--keyboard") {
            request["keyboard"] = keyboard
            let event = arguments.value("--event") ?? "show"
            guard ["show", "change", "hide"].contains(event) else {
                throw ParsedArguments.UsageError("--event is show, change or hide; got '\(event)'")
            }
            request["event"] = .string(event)
            request["duration"] = try number("--duration")
            if let curve = arguments.value("--curve") {
                guard let value = Int32(curve) else {
                    throw ParsedArguments.UsageError("--curve is an integer such as 7; got '\(curve)'")
                }
                request["curve"] = .int32(value)
            }
        } else if arguments.value("--event") != nil || arguments.value("--duration") != nil {
            throw ParsedArguments.UsageError(
                "--event and --duration need --keyboard X,Y,W,H (the keyboard's end frame)")
        }
        if arguments.has("--follows-undocked") { request["follows-undocked"] = .boolean(true) }
        if arguments.has("--reserve-bar") { request["reserve-accessory-bar"] = .boolean(true) }
        switch try hardwareKeyboard(arguments) {
        case .yes: request["hardware-keyboard"] = .boolean(true)
        case .no: request["hardware-keyboard"] = .boolean(false)
        case .auto: break
        }
        return request
    }
}
