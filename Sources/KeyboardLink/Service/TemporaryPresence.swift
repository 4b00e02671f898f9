// TEMPORARY until the Presence domain lands; replaced at merge.
public enum PresencePolicy: String, Sendable { case external, any, bluetooth }
public struct HardwareKeyboard: Sendable, Equatable {
    public enum Source: String, Sendable { case bluetooth, evdev }
    public var source: Source
    public var id: String
    public var name: String
}
public struct BluetoothKeyboardPresence: Sendable { public var address: BluetoothAddress; public var name: String }
public enum PresenceEvaluator {
    public static func evaluate(
        evdev: [HardwareKeyboard], bluetooth: [BluetoothKeyboardPresence], policy: PresencePolicy
    ) -> [HardwareKeyboard] {
        bluetooth.map { HardwareKeyboard(source: .bluetooth, id: $0.address.description, name: $0.name) } + evdev
    }
}
public struct EvdevPresenceFeed: Sendable {
    public init(devicesPath: String, directory: String) {}
    public func run(into service: KeyboardLinkService, logger: Logger) async {}
}
