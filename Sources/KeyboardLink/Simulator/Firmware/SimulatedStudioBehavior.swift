/// A behaviour a simulated ZMK keyboard offers: its local id, display name and what parameters it accepts.
package struct SimulatedStudioBehavior: Hashable, Sendable {
    /// How the simulated firmware validates a binding's parameters, as ZMK does from the behaviour's metadata.
    package enum Parameters: Hashable, Sendable {
        /// No parameters: both must be 0.
        case none
        /// `param1` is a HID usage (`StudioHIDUsage`) on the keyboard (ids up to 0xFF) or consumer page
        /// (ids up to 0xFFF); `param2` is 0.
        case hidUsage
        /// `param1` is a layer index that exists; `param2` is 0.
        case layer
    }

    /// The local id used in bindings.
    package var id: UInt32
    /// The name ZMK Studio shows ("Key Press", ...).
    package var displayName: String
    /// What the parameters must look like.
    package var parameters: Parameters

    /// Creates a behaviour.
    package init(id: UInt32, displayName: String, parameters: Parameters) {
        self.id = id
        self.displayName = displayName
        self.parameters = parameters
    }

    /// The standard behaviours, in the order ZMK Studio lists them, with ids starting at `firstID`.
    ///
    /// Ids deliberately do not start at 0, so a driver that confuses ids with list positions fails in tests.
    package static func standard(firstID: UInt32 = 11) -> [SimulatedStudioBehavior] {
        let table: [(String, Parameters)] = [
            ("Key Press", .hidUsage), ("Momentary Layer", .layer), ("Transparent", .none), ("None", .none),
            ("Toggle Layer", .layer), ("Studio Unlock", .none),
        ]
        return table.enumerated().map { index, entry in
            SimulatedStudioBehavior(id: firstID + UInt32(index), displayName: entry.0, parameters: entry.1)
        }
    }
}
