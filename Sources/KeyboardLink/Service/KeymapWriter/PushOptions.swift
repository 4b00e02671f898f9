import KBlinkAPI
import KeyboardLinkDrivers

/// What a `Push` or `CheckAction` asks of the keyboard's writer: the caller's ``PushRequest`` in the daemon's
/// terms, or a check of one action.
package struct PushOptions: Sendable, Equatable {
    /// Plan only: report what would be written, write nothing.
    package var dryRun = false
    /// Read the keyboard back after writing and compare before saving.
    package var verify = true
    /// How long to wait for the user to unlock a locked keyboard.
    package var unlockTimeout: Duration = .seconds(30)
    /// After a successful push, turn re-applying on connect on (true) or off (false); nil leaves it as it is.
    package var applyOnConnect: Bool?
    /// How keys that both the draft and the keyboard changed since the base are resolved: `.stop` (the default)
    /// refuses the push naming them, `.keepKeyboard` keeps the keyboard's, `.overwrite` makes the keyboard equal
    /// to the whole draft.
    package var resolution = PushMerge.Resolution.stop
    /// Only ask whether the keyboard's firmware can hold this action (any spelling); nothing is read or written.
    /// Set by `CheckAction`, not a `Push` option: the check needs only `edit-keymap`.
    package var check: String?

    /// The defaults.
    package init() {}

    /// The options a caller sent (decoded and checked by ``PushRequest``).
    package init(_ request: PushRequest) {
        dryRun = request.dryRun
        verify = request.verify
        if let seconds = request.unlockTimeout { unlockTimeout = .seconds(Int(seconds)) }
        applyOnConnect = request.applyOnConnect
        resolution = request.overwrite ? .overwrite : request.keepKeyboard ? .keepKeyboard : .stop
    }
}
