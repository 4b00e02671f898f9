import KBlinkAPI
import KeyboardLinkDBus

/// The D-Bus errors a refused authorization answers with. Each message says what was refused and what to do.
package enum AuthorizationError {
    /// The caller may not do this: polkit said no, or polkit is absent and the caller is neither root nor in the
    /// configured group, or polkit did not answer in time.
    package static let notAuthorized = KBlinkError.Code.notAuthorized.errorName
    /// polkit would ask the person, but the call did not carry `ALLOW_INTERACTIVE_AUTHORIZATION`: the standard
    /// D-Bus error for this, which tells a client to call again with the flag set.
    package static let interactiveAuthorizationRequired = KBlinkError.Code.interactiveAuthorizationRequired.errorName

    /// polkit (or the group rule) refused.
    static func refused(_ action: PolkitAction, because reason: String) -> DBusError {
        DBusError(notAuthorized, "not authorized to \(action.summary) (\(action.id)): \(reason)")
    }

    /// polkit wants to ask the person and the caller did not allow it.
    static func interactionRequired(_ action: PolkitAction) -> DBusError {
        DBusError(
            interactiveAuthorizationRequired,
            "\(action.summary) needs authentication (\(action.id)): run the command in a terminal so that it can "
                + "ask for a password (callers: set ALLOW_INTERACTIVE_AUTHORIZATION), or as root")
    }
}
