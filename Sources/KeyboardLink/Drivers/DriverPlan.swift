/// What a push writes to a keyboard: its macro slots first (keyboards with runtime macros), then the bindings.
public struct DriverPlan: Sendable, Hashable {
    /// The macro slots to write; nil when every slot already holds what it should (or the keyboard has none).
    public var macros: DriverMacroWrite?
    /// The bindings to write, in layer then layout order.
    public var keys: [DriverKeyWrite]

    /// Creates a plan.
    public init(macros: DriverMacroWrite? = nil, keys: [DriverKeyWrite]) {
        self.macros = macros
        self.keys = keys
    }

    /// Whether the push writes nothing.
    public var isEmpty: Bool { macros == nil && keys.isEmpty }
}
