/// How kblinkd judges presence beyond the policy: `[Presence] GracePeriod` and `[Presence] CountVirtualDevices`.
package struct PresenceSettings: Sendable, Equatable {
    /// How long `HardwareKeyboardAttached` stays true after the last keyboard left.
    package var gracePeriod: Duration
    /// Whether virtual keyboards (uinput remappers such as keyd or kanata, ydotool) count.
    package var countsVirtualDevices: Bool

    /// Settings; the default has no grace period (kblinkd's configuration defaults to 5 seconds).
    package init(gracePeriod: Duration = .zero, countsVirtualDevices: Bool = false) {
        self.gracePeriod = gracePeriod
        self.countsVirtualDevices = countsVirtualDevices
    }
}
