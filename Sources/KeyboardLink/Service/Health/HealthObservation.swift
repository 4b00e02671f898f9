/// What the healing ladder sees of a keyboard at one moment, from BlueZ and the input devices.
struct HealthObservation: Sendable, Equatable {
    /// BlueZ's `Connected`.
    var connected: Bool
    /// Connected and ready for its input profile: `ServicesResolved` for an LE (HOGP) keyboard, `Connected` for a
    /// classic HID one. The deadline runs from here.
    var linkUp: Bool
    /// Whether an evdev node whose `Uniq` is the keyboard's address exists (any input node of it, keyboard rule or
    /// not).
    var hasInputDevice: Bool
    /// Whether kblinkd watches input devices at all; when it cannot (a container without `/dev/input`), a connected
    /// keyboard is taken to be working, and nothing is healed.
    var inputDevicesWatched: Bool
    /// BlueZ's `Paired` and `Trusted`: a keyboard that has both comes back by itself (asleep, not disconnected).
    var paired: Bool
    var trusted: Bool
    /// An LE keyboard (HID over GATT): `Device1.ConnectProfile` cannot reach its input profile, since bluetoothd
    /// always sends it over BR/EDR (docs/real-bluez.md, finding 12), so its ladder has no connect-profile step.
    var lowEnergy = false
}
