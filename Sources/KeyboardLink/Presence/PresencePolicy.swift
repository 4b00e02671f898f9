/// Which hardware keyboards count as "a hardware keyboard is in use" (the `HardwareKeyboardPolicy` setting).
package enum PresencePolicy: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Connected Bluetooth keyboards and USB keyboards, not a laptop's built-in keyboard (the default: a tablet or
    /// a convertible folded into tablet mode still has its built-in keyboard, which says nothing).
    case external
    /// Every keyboard the kernel sees, built-in ones included (virtual ones never count).
    case any
    /// Only Bluetooth keyboards.
    case bluetooth

    /// The policy used when the configuration says nothing.
    package static let `default` = PresencePolicy.external

    /// Parses a configuration value: `external`, `any` or `bluetooth`, in any case, surrounding spaces ignored.
    /// - Throws: ``PresencePolicyError`` listing the accepted values.
    package init(parsing text: String) throws(PresencePolicyError) {
        guard let policy = PresencePolicy(rawValue: text.trimmingWhiteSpace().lowercased()) else {
            throw PresencePolicyError(text: text)
        }
        self = policy
    }

    /// Whether an evdev keyboard on `bus` counts under this policy.
    package func counts(bus: InputBus) -> Bool {
        switch self {
        case .any: true
        case .external: bus == .usb || bus == .bluetooth
        case .bluetooth: bus == .bluetooth
        }
    }

    package var description: String { rawValue }
}
