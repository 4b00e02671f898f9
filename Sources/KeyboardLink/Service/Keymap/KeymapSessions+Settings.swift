import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkKeymap

extension KeymapSessions {
    /// Turns re-applying the profile on connect on or off (the `ApplyOnConnect` property), saved atomically with the
    /// rest of the profile before it answers.
    /// - Throws: ``KBlinkError``: `org.kblink1.Error.Failed` when turning it on for a profile that was never pushed
    ///   (there is no pushed keymap to re-apply, and kblink's guessed defaults must never overwrite a keyboard) or
    ///   when the profile cannot be saved; `NotFound` when the keyboard has no session.
    package func setApplyOnConnect(_ address: BluetoothAddress, _ enabled: Bool) async throws {
        let accepted = try await editProfile(address) { _, settings throws(KeymapError) in
            guard !enabled || settings.baseOnDevice else { return false }
            settings.applyOnConnect = enabled
            return true
        }
        guard accepted else {
            throw KBlinkError.failed(
                "apply on connect re-applies the keymap last pushed to the keyboard, and none was pushed yet; "
                    + "push first: 'kblink keymap push \(address) --apply-on-connect'")
        }
    }
}
