import InsetCore
import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// The `a{sv}` forms of `org.kblink1.Manager.ResolveInsets`: request keys in, answer keys out
/// (documented in docs/dbus-api.md).
///
/// Rectangles are `ad` `[x, y, width, height]`, sizes `ad` `[width, height]`; numbers may be sent as any D-Bus
/// number type. Unknown keys and malformed values are refused with `InvalidArgs` naming the key.
package enum InsetRequestCodec {
    /// The keys a request may hold.
    package static let requestKeys: Set<String> = [
        "screen", "screen-id", "window", "view-bounds", "safe-bottom", "event", "keyboard", "keyboard-begin",
        "duration", "curve", "is-local", "event-screen", "hardware-keyboard", "focused", "fields", "focused-field",
        "top-limit", "follows-undocked", "uses-bottom-safe-area", "dismiss-padding", "accessory-bar-max",
        "reserve-accessory-bar", "local-only", "near-edge-threshold", "guardian-margin",
    ]

    /// The most text fields one request may carry: the guardian only keeps the focused one visible, and a bound keeps
    /// every call short for everyone else.
    package static let maximumFields = 256

    /// Event names accepted in `event` (CLI spellings and the iOS names).
    package static func eventKind(_ text: String) -> KeyboardEventKind? {
        switch text {
        case "show", "willShow", "will-show": .willShow
        case "change", "willChangeFrame", "will-change-frame": .willChangeFrame
        case "hide", "willHide", "will-hide": .willHide
        case "did-hide", "didHide": .didHide
        default: nil
        }
    }

    /// Builds a request. `hardwareKeyboard` is the daemon's live state, used unless the request says
    /// `hardware-keyboard`.
    /// - Throws: ``KBlinkError`` (`invalidArgs`) naming the bad key.
    package static func request(from dictionary: [String: DBusValue], hardwareKeyboard: Bool) throws -> InsetRequest {
        if let unknown = dictionary.keys.sorted().first(where: { !requestKeys.contains($0) }) {
            throw KBlinkError.invalidArgs(
                "unknown ResolveInsets key '\(unknown.errorExcerpt())'; known keys: \(requestKeys.sorted().joined(separator: ", "))"
            )
        }
        guard let screenValue = dictionary["screen"] else {
            throw KBlinkError.invalidArgs("ResolveInsets needs 'screen' ([width, height])")
        }
        let screen = try size(screenValue, key: "screen")
        let window =
            try dictionary["window"].map { try rect($0, key: "window") }
            ?? Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        var request = InsetRequest(screen: screen, window: window)
        if let value = dictionary["screen-id"] {
            request.screenID = ScreenID(rawValue: try string(value, key: "screen-id"))
        }
        if let value = dictionary["view-bounds"] { request.viewBounds = try rect(value, key: "view-bounds") }
        if let value = dictionary["safe-bottom"] { request.safeAreaBottom = try number(value, key: "safe-bottom") }
        let eventKeys = ["keyboard", "keyboard-begin", "duration", "curve", "is-local", "event-screen"]
        if let value = dictionary["event"] {
            let name = try string(value, key: "event")
            guard let kind = eventKind(name) else {
                throw KBlinkError.invalidArgs("'event' is show, change, hide or did-hide; got '\(name.errorExcerpt())'")
            }
            guard let keyboard = dictionary["keyboard"] else {
                throw KBlinkError.invalidArgs("'event' needs 'keyboard' (the end frame [x, y, width, height])")
            }
            var event = KeyboardEvent(kind: kind, endFrame: try rect(keyboard, key: "keyboard"))
            if let value = dictionary["keyboard-begin"] { event.beginFrame = try rect(value, key: "keyboard-begin") }
            if let value = dictionary["duration"] { event.duration = try number(value, key: "duration") }
            if let value = dictionary["curve"] {
                let raw = try number(value, key: "curve")
                guard raw == raw.rounded(), abs(raw) < 1_000_000 else {
                    throw KBlinkError.invalidArgs("'curve' is an integer")
                }
                event.curve = AnimationCurve(rawValue: Int(raw))
            }
            if let value = dictionary["is-local"] { event.isLocal = try bool(value, key: "is-local") }
            if let value = dictionary["event-screen"] {
                event.screen = ScreenID(rawValue: try string(value, key: "event-screen"))
            }
            request.event = event
        } else if let stray = eventKeys.first(where: { dictionary[$0] != nil }) {
            throw KBlinkError.invalidArgs("'\(stray)' needs 'event' (show, change, hide or did-hide)")
        }
        request.hardwareKeyboardAttached =
            try dictionary["hardware-keyboard"].map { try bool($0, key: "hardware-keyboard") }
            ?? hardwareKeyboard
        if let value = dictionary["fields"] {
            guard case .dictionary(_, _, let entries) = value.unwrapped else {
                throw KBlinkError.invalidArgs("'fields' is a{sv}: field id -> [x, y, width, height]")
            }
            guard entries.count <= maximumFields else {
                throw KBlinkError.invalidArgs(
                    "'fields' holds \(entries.count) fields; ResolveInsets takes at most \(maximumFields): send the "
                        + "fields near the focused one")
            }
            for entry in entries {
                guard let id = entry.key.stringValue else { throw KBlinkError.invalidArgs("'fields' keys are strings") }
                request.fields.append(
                    GuardedField(
                        id: FieldID(rawValue: id), frame: try rect(entry.value, key: "fields.\(id.errorExcerpt())")))
            }
        }
        if let value = dictionary["focused-field"] {
            request.focusedField = FieldID(rawValue: try string(value, key: "focused-field"))
        }
        if let value = dictionary["focused"] { request.focus(frame: try rect(value, key: "focused")) }
        if let value = dictionary["top-limit"] { request.topLimit = try number(value, key: "top-limit") }
        var options = LayoutOptions()
        if let value = dictionary["follows-undocked"] {
            options.followsUndockedKeyboard = try bool(value, key: "follows-undocked")
        }
        if let value = dictionary["uses-bottom-safe-area"] {
            options.usesBottomSafeArea = try bool(value, key: "uses-bottom-safe-area")
        }
        if let value = dictionary["dismiss-padding"] {
            options.keyboardDismissPadding = try number(value, key: "dismiss-padding")
        }
        if let value = dictionary["accessory-bar-max"] {
            options.accessoryBarMax = try number(value, key: "accessory-bar-max")
        }
        if let value = dictionary["reserve-accessory-bar"] {
            options.reserveAccessoryBar = try bool(value, key: "reserve-accessory-bar")
        }
        if let value = dictionary["local-only"] { options.isLocalOnly = try bool(value, key: "local-only") }
        if let value = dictionary["near-edge-threshold"] {
            options.nearEdgeThreshold = try number(value, key: "near-edge-threshold")
        }
        if let value = dictionary["guardian-margin"] {
            options.guardianMargin = try number(value, key: "guardian-margin")
        }
        request.options = options
        do {
            try request.validate()
        } catch {
            throw KBlinkError.invalidArgs("\(error)")
        }
        return request
    }

    /// The answer as `a{sv}`.
    package static func dictionary(from answer: InsetAnswer) -> DBusValue {
        var entries: [(String, DBusValue)] = [
            ("mode", .string(answer.mode.rawValue)),
            ("event", .string(InsetAnswer.text(answer.disposition))),
            ("overlap", .double(answer.overlap)),
            ("inset", .double(answer.reservedInset)),
            ("guide", rectValue(answer.guideFrame)),
            ("guide-top", .double(answer.guideTop)),
            ("guide-height", .double(answer.guideHeight)),
            ("dismiss-threshold", .double(answer.dismissThreshold)),
            ("slide", .double(answer.slide)),
            ("hardware-keyboard", .boolean(answer.hardwareKeyboardAttached)),
            (
                "near-edges",
                .array(.string, Edge.allCases.filter(answer.nearEdges.contains).map { .string($0.rawValue) })
            ),
        ]
        if let keyboard = answer.keyboardFrame { entries.append(("keyboard", rectValue(keyboard))) }
        if let animation = answer.animation {
            entries.append(
                (
                    "animation",
                    .dictionary(
                        key: .string, value: .variant,
                        [
                            DBusDictionaryEntry(key: .string("from"), value: .variant(.double(animation.from))),
                            DBusDictionaryEntry(key: .string("to"), value: .variant(.double(animation.to))),
                            DBusDictionaryEntry(key: .string("duration"), value: .variant(.double(animation.duration))),
                            DBusDictionaryEntry(
                                key: .string("curve"),
                                value: .variant(.int32(Int32(clamping: animation.curve.rawValue)))),
                        ])
                ))
        }
        return .dictionary(
            key: .string, value: .variant,
            entries.map { DBusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    package static func rectValue(_ rect: Rect) -> DBusValue {
        .array(.double, [.double(rect.minX), .double(rect.minY), .double(rect.width), .double(rect.height)])
    }

    static func number(_ value: DBusValue, key: String) throws -> Double {
        let inner = value.unwrapped
        if case .double(let number) = inner {
            guard number.isFinite else { throw KBlinkError.invalidArgs("'\(key)' must be a finite number") }
            return number
        }
        if let integer = inner.integerValue { return Double(integer) }
        throw KBlinkError.invalidArgs("'\(key)' must be a number, not '\(inner.type)'")
    }

    static func numbers(_ value: DBusValue, key: String, count: Int, shape: String) throws -> [Double] {
        guard let items = value.unwrapped.arrayValue, items.count == count else {
            throw KBlinkError.invalidArgs("'\(key)' must be \(count) numbers \(shape)")
        }
        return try items.map { try number($0, key: key) }
    }

    static func rect(_ value: DBusValue, key: String) throws -> Rect {
        let values = try numbers(value, key: key, count: 4, shape: "[x, y, width, height]")
        guard values[2] >= 0, values[3] >= 0 else { throw KBlinkError.invalidArgs("'\(key)' has a negative size") }
        return Rect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    static func size(_ value: DBusValue, key: String) throws -> Size {
        let values = try numbers(value, key: key, count: 2, shape: "[width, height]")
        guard values[0] > 0, values[1] > 0 else { throw KBlinkError.invalidArgs("'\(key)' must be positive") }
        return Size(width: values[0], height: values[1])
    }

    static func bool(_ value: DBusValue, key: String) throws -> Bool {
        guard let flag = value.boolValue else { throw KBlinkError.invalidArgs("'\(key)' must be a boolean") }
        return flag
    }

    static func string(_ value: DBusValue, key: String) throws -> String {
        guard case .string(let text) = value.unwrapped, !text.isEmpty, text.utf8.count <= 256 else {
            throw KBlinkError.invalidArgs("'\(key)' must be a non-empty string of at most 256 bytes")
        }
        return text
    }

    /// Reads an answer back (the CLI uses it).
    package static func answerFields(_ dictionary: [String: DBusValue]) -> [(key: String, value: DBusValue)] {
        let order = [
            "mode", "event", "overlap", "inset", "guide", "guide-top", "guide-height", "dismiss-threshold", "slide",
            "keyboard", "hardware-keyboard", "near-edges", "animation",
        ]
        return order.compactMap { key in dictionary[key].map { (key, $0) } }
    }
}
