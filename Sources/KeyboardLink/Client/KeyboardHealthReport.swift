import KBlinkAPI
import KeyboardLinkDBus

/// A keyboard's health as `kblink info` shows it: its `Health`, `HealthDetail`, `Heals` and `ReconnectTimes`
/// properties (docs/health.md).
public struct KeyboardHealthReport: Sendable, Equatable {
    /// Whether it can type.
    public var health: KeyboardHealth
    /// The step being tried, or the reason and what to do; empty when there is nothing to say.
    public var detail: String
    /// The last healing steps, newest last.
    public var heals: [HealRecord]
    /// The last reconnect times in milliseconds, newest last.
    public var reconnectTimes: [UInt32]

    /// A report as given.
    public init(health: KeyboardHealth, detail: String, heals: [HealRecord], reconnectTimes: [UInt32]) {
        self.health = health
        self.detail = detail
        self.heals = heals
        self.reconnectTimes = reconnectTimes
    }

    /// Reads the report from a keyboard's properties; what is missing or malformed reads as nothing said.
    public init(health: KeyboardHealth, properties: [String: DBusValue]) {
        typealias Keyboard = KBlinkContract.Keyboard
        self.health = health
        detail = properties[Keyboard.healthDetailProperty]?.stringValue ?? ""
        heals = properties[Keyboard.healsProperty].flatMap { try? [HealRecord](dbusValue: $0.unwrapped) } ?? []
        reconnectTimes =
            properties[Keyboard.reconnectTimesProperty].flatMap { try? [UInt32](dbusValue: $0.unwrapped) } ?? []
    }

    /// The last reconnect time in milliseconds.
    public var lastReconnectTime: UInt32? { reconnectTimes.last }

    /// The median reconnect time in milliseconds (the lower of the two middle ones for an even count).
    public var medianReconnectTime: UInt32? {
        guard !reconnectTimes.isEmpty else { return nil }
        let sorted = reconnectTimes.sorted()
        return sorted[(sorted.count - 1) / 2]
    }
}

extension KBlinkClient {
    /// A keyboard's health report (one `GetAll` of its `org.kblink1.Keyboard` properties).
    public func healthReport(of keyboard: KeyboardInfo) async throws -> KeyboardHealthReport {
        let properties = try await keyboardProxy(keyboard).allProperties()
        return KeyboardHealthReport(health: keyboard.health, properties: properties.values)
    }
}
