import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkDrivers
import KeyboardLinkKeymap

// Every domain error becomes an `org.kblink1.Error.*` here, and only here: the domains know nothing of D-Bus
// error names.

extension KeymapError {
    /// The `org.kblink1.Error.*` error a D-Bus caller gets, with the model's message.
    ///
    /// Follows `category`, except that a key or zone the keyboard's layout does not have is `InvalidArgs`: over
    /// D-Bus both are arguments the caller got wrong (with a suggestion), not objects that went missing.
    public var dbusError: DBusError {
        switch self {
        case .unknownKey, .zoneNotInLayout:
            return KBlinkError.invalidArgs(description)
        default:
            break
        }
        switch category {
        case .invalidArgs: return KBlinkError.invalidArgs(description)
        case .notFound: return KBlinkError.notFound(description)
        case .notSupported: return KBlinkError.notSupported(description)
        case .failed: return KBlinkError.failed(description)
        }
    }
}

extension DriverError {
    /// The `org.kblink1.Error.*` equivalent.
    public var dbusError: DBusError {
        switch self {
        case .locked(let text): DBusError(KBlinkError.locked, text)
        case .notSupported(let text): KBlinkError.notSupported(text)
        case .notConnected(let text): KBlinkError.notConnected(text)
        case .failed(let text): KBlinkError.failed(text)
        }
    }
}
