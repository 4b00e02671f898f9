import KeyboardLinkDBus

/// The names of the desktop services the on-screen keyboard agent talks to, and the GSettings key it sets.
package enum OSKDesktopNames {
    /// The GSettings schema of the key squeekboard, Phosh and GNOME read.
    package static let screenKeyboardSchema = "org.gnome.desktop.a11y.applications"
    /// The key in that schema.
    package static let screenKeyboardKey = "screen-keyboard-enabled"
    /// Its dconf path (the schema's path `/org/gnome/desktop/a11y/applications/` and the key).
    package static let screenKeyboardPath = "/org/gnome/desktop/a11y/applications/screen-keyboard-enabled"
    /// The schema's default for the key.
    package static let screenKeyboardDefault = false

    /// squeekboard's (and Stevia's) on-screen keyboard service.
    package static let osk0Name: BusName = "sm.puri.OSK0"
    /// Its object.
    package static let osk0Path: ObjectPath = "/sm/puri/OSK0"
    /// Its interface, with `SetVisible(b)` and the property `Visible`.
    package static let osk0Interface: InterfaceName = "sm.puri.OSK0"

    /// KWin.
    package static let kwinName: BusName = "org.kde.KWin"
    /// KWin's virtual keyboard object.
    package static let kwinVirtualKeyboardPath: ObjectPath = "/VirtualKeyboard"
    /// Its interface, with the properties `enabled` (saved in kwinrc: never written), `active` and `visible`.
    package static let kwinVirtualKeyboardInterface: InterfaceName = "org.kde.kwin.VirtualKeyboard"
}
