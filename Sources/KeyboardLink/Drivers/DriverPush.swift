/// Pushes a keymap to a keyboard through its driver: reads what the keyboard holds, writes only the bindings
/// that differ, reads back to verify, saves; a failure after the first write rolls the keyboard back.
public struct DriverPush: Sendable {
    /// What a push did (or, for a dry run, would do).
    public struct Outcome: Sendable, Equatable {
        /// The bindings written (or to write), in layer then layout order.
        public var writes: [DriverKeyWrite]
        /// What the keyboard held before, for each written binding.
        public var previous: [DeviceKeymap.Binding]
        /// Whether the keyboard was read back and matched.
        public var verified: Bool
        /// Whether the changes were saved.
        public var saved: Bool
        /// Whether nothing was written because it was a dry run.
        public var dryRun: Bool
    }

    /// A push that failed: what went wrong and whether the keyboard was put back.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The driver's error.
        public var error: DriverError
        /// Bindings written before the failure.
        public var written: Int
        /// Whether the written bindings were rolled back (always true when none were written).
        public var rolledBack: Bool

        public var description: String {
            guard written > 0 else { return error.message + "; nothing was written, the draft is kept" }
            return error.message
                + (rolledBack
                    ? "; the keyboard was rolled back to its previous keymap and the draft is kept"
                    : "; rolling back failed too, so the keyboard may hold part of the change; the draft is kept: "
                        + "push again once the keyboard is back")
        }
    }

    /// The driver.
    public let driver: any KeyboardDriver
    /// The keyboard's layout.
    public let layout: PhysicalLayout

    /// Creates a push through `driver` on `layout`.
    public init(driver: any KeyboardDriver, layout: PhysicalLayout) {
        self.driver = driver
        self.layout = layout
    }

    /// The writes that turn `device` into `desired`, in layer then layout key order.
    /// - Throws: `DriverError.notSupported` when `desired` has more layers than the keyboard.
    public static func plan(desired: Keymap, device: DeviceKeymap, layout: PhysicalLayout)
        throws(DriverError) -> [DriverKeyWrite]
    {
        guard desired.layerCount <= device.layers.count else {
            throw .notSupported(
                "the profile has \(desired.layerCount) layers, the keyboard holds \(device.layers.count); "
                    + "remove the layers above \(device.layers.count - 1) from the profile")
        }
        var writes: [DriverKeyWrite] = []
        for layer in 0..<desired.layerCount {
            for key in layout.keys {
                let action = desired.action(layer: layer, key: key.name) ?? Keymap.clearedAction(layer: layer)
                if device.binding(layer: layer, key: key.name) != .action(action) {
                    writes.append(DriverKeyWrite(layer: layer, key: key.name, action: action))
                }
            }
        }
        return writes
    }

    /// Runs the push.
    /// - Parameters:
    ///   - desired: the keymap the keyboard should hold.
    ///   - dryRun: plan only, write nothing.
    ///   - verify: read the keyboard back after writing and compare.
    ///   - progress: called after each write with (done, total).
    /// - Throws: `Failure`.
    public func run(
        desired: Keymap, dryRun: Bool, verify: Bool, progress: @Sendable (Int, Int) async -> Void = { _, _ in }
    ) async throws(Failure) -> Outcome {
        let device: DeviceKeymap
        let writes: [DriverKeyWrite]
        do throws(DriverError) {
            device = try await driver.readKeymap(layout: layout)
            writes = try Self.plan(desired: desired, device: device, layout: layout)
            for write in Set(writes.map(\.action)).sorted(by: { $0.description < $1.description }) {
                try await driver.check(write)
            }
        } catch {
            throw Failure(error: error, written: 0, rolledBack: true)
        }
        let previous = writes.map { device.binding(layer: $0.layer, key: $0.key) ?? .other("nothing") }
        if dryRun || writes.isEmpty {
            return Outcome(writes: writes, previous: previous, verified: false, saved: false, dryRun: dryRun)
        }
        var done: [DriverKeyWrite] = []
        do throws(DriverError) {
            await progress(0, writes.count)
            for write in writes {
                try await driver.write(write, layout: layout)
                done.append(write)
                await progress(done.count, writes.count)
            }
            if verify {
                let readBack = try await driver.readKeymap(layout: layout)
                let remaining = try Self.plan(desired: desired, device: readBack, layout: layout)
                if let first = remaining.first {
                    throw .failed(
                        "reading back found \(remaining.count) binding(s) the keyboard did not take, "
                            + "first \(first.key) on layer \(first.layer)")
                }
            }
            try await driver.save()
        } catch {
            var rolledBack = true
            do {
                try await driver.rollback(previous: device, written: done, layout: layout)
            } catch {
                rolledBack = false
            }
            throw Failure(error: error, written: done.count, rolledBack: rolledBack)
        }
        return Outcome(writes: writes, previous: previous, verified: verify, saved: true, dryRun: false)
    }
}
