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
