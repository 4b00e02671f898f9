import KeyboardLinkPresence
import KeyboardLinkSupport

/// kblinkd's settings from its configuration file (`/etc/kblink/kblinkd.conf` by default), with the documented
/// defaults for every key the file leaves out.
///
/// The keys, their defaults and allowed values are listed in `systemd/kblinkd.conf.example` and `docs/systemd.md`.
package struct DaemonConfiguration: Sendable, Equatable {
    /// Where kblinkd looks when `--config` is not given; systemd's `ConfigurationDirectory=kblink` makes the
    /// directory.
    package static let defaultPath = "/etc/kblink/kblinkd.conf"
    /// The allowed `[Pairing] DiscoveryTimeout`, in seconds.
    package static let discoveryTimeoutRange: ClosedRange<Int> = 1...300
    /// The allowed `[Presence] GracePeriod`, in seconds.
    package static let gracePeriodRange: ClosedRange<Duration> = .zero ... .seconds(300)

    /// `[General] LogLevel`: the least important messages still logged. Default `info`.
    package var logLevel: LogLevel
    /// `[Presence] Policy`: which keyboards count as a hardware keyboard in use. Default `external`.
    package var presencePolicy: PresencePolicy
    /// `[Presence] InputDevices`: the kernel's list of input devices. Default `/proc/bus/input/devices`.
    package var inputDevicesPath: String
    /// `[Presence] InputDirectory`: watched for devices coming and going. Default `/dev/input`.
    package var inputDirectory: String
    /// `[Presence] SysfsRoot`: where sysfs is; a block of `InputDevices` counts only for a device listed under its
    /// `class/input`. Default `/sys`.
    package var sysfsRoot: String
    /// `[Presence] GracePeriod`: how long `HardwareKeyboardAttached` stays true after the last keyboard left, so
    /// that a keyboard that sleeps or drops for a moment does not make on-screen keyboards flicker. Default 5 s.
    package var gracePeriod: Duration
    /// `[Presence] CountVirtualDevices`: whether virtual keyboards (uinput remappers such as keyd and kanata,
    /// ydotool) count. Default `false`.
    package var countsVirtualDevices: Bool
    /// `[Health] Deadline`, `Budget`, `Backoff`, `PowerCycleAdapter`: how a keyboard connected without an input
    /// device is healed (docs/health.md). Defaults 10 s, 3 steps, 2 s, false.
    package var health: HealthSettings
    /// `[Battery] Provider`: whether kblinkd registers as a BlueZ battery provider (needs `bluetoothd -E`).
    /// Default `false`.
    package var batteryProvider: Bool
    /// `[Pairing] DefaultAgent`: whether kblinkd asks BlueZ to make its pairing agent the default one, so it also
    /// answers pairings other programs start. Default `false`.
    package var defaultAgent: Bool
    /// `[Pairing] DiscoveryTimeout`: how long a scan runs when the client gives no timeout. Default 20 seconds.
    package var discoveryTimeout: Duration
    /// `[Authorization] FallbackGroup`: when polkit is not on the bus, the group whose members (besides root) may
    /// pair, edit keymaps, write firmware and read macros. Default `kblink`.
    package var fallbackGroup: String

    /// Creates a configuration; every parameter defaults to the documented default.
    package init(
        logLevel: LogLevel = .info,
        presencePolicy: PresencePolicy = .external,
        inputDevicesPath: String = "/proc/bus/input/devices",
        inputDirectory: String = "/dev/input",
        sysfsRoot: String = "/sys",
        gracePeriod: Duration = .seconds(5),
        countsVirtualDevices: Bool = false,
        health: HealthSettings = HealthSettings(),
        batteryProvider: Bool = false,
        defaultAgent: Bool = false,
        discoveryTimeout: Duration = .seconds(20),
        fallbackGroup: String = "kblink"
    ) {
        self.logLevel = logLevel
        self.presencePolicy = presencePolicy
        self.inputDevicesPath = inputDevicesPath
        self.inputDirectory = inputDirectory
        self.sysfsRoot = sysfsRoot
        self.gracePeriod = gracePeriod
        self.countsVirtualDevices = countsVirtualDevices
        self.health = health
        self.batteryProvider = batteryProvider
        self.defaultAgent = defaultAgent
        self.discoveryTimeout = discoveryTimeout
        self.fallbackGroup = fallbackGroup
    }
}

extension DaemonConfiguration {
    /// The keys a reload (SIGHUP) does not apply, as `[Section] Key`, with the value each has in a configuration:
    /// they are read once, when kblinkd starts (the watched paths, the battery provider's registration, the agent's,
    /// the authorization fallback). A reload applies `LogLevel`, `Policy`, `GracePeriod`, `CountVirtualDevices`,
    /// `[Health]` and `DiscoveryTimeout`.
    static let restartOnlyKeys: [(key: String, value: @Sendable (DaemonConfiguration) -> String)] = [
        ("[Presence] InputDevices", { $0.inputDevicesPath }),
        ("[Presence] InputDirectory", { $0.inputDirectory }),
        ("[Presence] SysfsRoot", { $0.sysfsRoot }),
        ("[Battery] Provider", { "\($0.batteryProvider)" }),
        ("[Pairing] DefaultAgent", { "\($0.defaultAgent)" }),
        ("[Authorization] FallbackGroup", { $0.fallbackGroup }),
    ]

    /// The keys read only at start whose value differs between the running configuration and a reloaded one, in
    /// documentation order.
    package static func restartOnlyChanges(from running: DaemonConfiguration, to reloaded: DaemonConfiguration)
        -> [String]
    {
        restartOnlyKeys.filter { $0.value(running) != $0.value(reloaded) }.map(\.key)
    }
}
