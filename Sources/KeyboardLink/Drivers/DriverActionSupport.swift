import KeyboardLinkKeymap

/// Which actions a keyboard's firmware can hold, as a driver learned it from the keyboard: kept after the driver is
/// closed, so that a later check (`CheckAction`) needs no link to the keyboard.
package enum DriverActionSupport: Sendable, Hashable {
    /// VIA: whether an action has a keycode depends on the action alone.
    case via
    /// ZMK Studio: the behaviours the firmware lists, by display name.
    case zmkStudio(StudioDriverBindings)

    /// The driver that learned it.
    package var kind: DriverKind {
        switch self {
        case .via: .via
        case .zmkStudio: .zmkStudio
        }
    }

    /// Checks that `action` can be written, as the driver's `check(_:)` would.
    /// - Throws: `DriverError.notSupported` naming what cannot be encoded.
    package func check(_ action: KeyAction) throws(DriverError) {
        switch self {
        case .via:
            try VIADriver.checkAction(action)
        case .zmkStudio(let bindings):
            _ = try bindings.encode(action)
        }
    }
}
