import KeyboardLinkDBus

/// `PairingPrompt(o keyboard, s kind, s code, q entered)`.
public struct PairingPromptSignal: Sendable, Equatable, KBlinkSignalBody {
    /// `(o keyboard, s kind, s code, q entered)`.
    public static let arguments = [
        DBusArgument("keyboard", .objectPath), DBusArgument("kind", .string), DBusArgument("code", .string),
        DBusArgument("entered", .uint16),
    ]

    /// The keyboard's object path.
    public var keyboard: ObjectPath
    /// What to show.
    public var prompt: PairingPromptRelay

    /// A signal as given.
    public init(keyboard: ObjectPath, prompt: PairingPromptRelay) {
        self.keyboard = keyboard
        self.prompt = prompt
    }

    /// Reads the signal's body.
    /// - Throws: ``PairingProtocolError`` when the body is not `(o, s, s, q)` with a known kind.
    public init(body: [DBusValue]) throws(PairingProtocolError) {
        guard body.count == 4, case .objectPath(let keyboard) = body[0], case .string(let kind) = body[1],
            case .string(let code) = body[2], case .uint16(let entered) = body[3]
        else {
            throw PairingProtocolError(
                "PairingPrompt carries (o keyboard, s kind, s code, q entered), got '\(Signature(body.map(\.type)).rawValue)'"
            )
        }
        self.keyboard = keyboard
        self.prompt = PairingPromptRelay(kind: try PairingPromptKind(wire: kind), code: code, entered: entered)
    }

    /// The signal's body.
    public var body: [DBusValue] {
        [.objectPath(keyboard), .string(prompt.kind.rawValue), .string(prompt.code), .uint16(prompt.entered)]
    }
}

/// `PairingFinished(o keyboard, b ok, s error, s message)`; `error` is empty when `ok`.
public struct PairingFinishedSignal: Sendable, Equatable, KBlinkSignalBody {
    /// `(o keyboard, b ok, s error, s message)`.
    public static let arguments = [
        DBusArgument("keyboard", .objectPath), DBusArgument("ok", .boolean), DBusArgument("error", .string),
        DBusArgument("message", .string),
    ]

    /// The keyboard's object path.
    public var keyboard: ObjectPath
    /// The keyboard ended paired, trusted and connected.
    public var ok: Bool
    /// The `org.kblink1.Error.*` name, empty on success.
    public var error: String
    /// What happened, for people.
    public var message: String

    /// A signal as given.
    public init(keyboard: ObjectPath, ok: Bool, error: String, message: String) {
        self.keyboard = keyboard
        self.ok = ok
        self.error = error
        self.message = message
    }

    /// Reads the signal's body.
    /// - Throws: ``PairingProtocolError`` when the body is not `(o, b, s, s)`.
    public init(body: [DBusValue]) throws(PairingProtocolError) {
        guard body.count == 4, case .objectPath(let keyboard) = body[0], case .boolean(let ok) = body[1],
            case .string(let error) = body[2], case .string(let message) = body[3]
        else {
            throw PairingProtocolError(
                "PairingFinished carries (o keyboard, b ok, s error, s message), got '\(Signature(body.map(\.type)).rawValue)'"
            )
        }
        self.init(keyboard: keyboard, ok: ok, error: error, message: message)
    }

    /// The signal's body.
    public var body: [DBusValue] { [.objectPath(keyboard), .boolean(ok), .string(error), .string(message)] }
}
