/// Which bus to connect to.
public enum BusAddress: Sendable, Equatable, CustomStringConvertible {
    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS` or the default socket).
    case system
    /// The session bus (`DBUS_SESSION_BUS_ADDRESS`; no autolaunch).
    case session
    /// A bus at a D-Bus server address such as `unix:path=/tmp/x/bus`.
    case address(String)

    /// Parses `system`, `session` or a D-Bus address (`unix:...`, `tcp:...`).
    /// - Throws: ``DBusError`` (`InvalidArgs`) for anything else.
    public init(parsing text: String) throws {
        switch text {
        case "system": self = .system
        case "session": self = .session
        default:
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
                text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber }),
                !text.utf8.contains(0)
            else {
                throw DBusError.invalidArgs(
                    "'\(text)' is not a bus: use system, session or a D-Bus address such as unix:path=/run/x")
            }
            self = .address(text)
        }
    }

    public var description: String {
        switch self {
        case .system: "system"
        case .session: "session"
        case .address(let address): address
        }
    }
}
