/// How kblinkd heals keyboards that are connected without an input device: the `[Health]` section of its
/// configuration (docs/health.md).
package struct HealthSettings: Sendable, Equatable {
    /// How long a connected keyboard may be without its input device before the ladder's first step
    /// (`[Health] Deadline`, default 10 s); also how long each step's effect is waited for.
    package var deadline: Duration
    /// How many healing steps run at most for one keyboard before it is marked failed (`[Health] Budget`,
    /// default 3).
    package var budget: Int
    /// The wait between two steps, doubled after each one (`[Health] Backoff`, default 2 s).
    package var backoff: Duration
    /// Whether the ladder's last step power-cycles the keyboard's adapter, when no other device is connected on it
    /// (`[Health] PowerCycleAdapter`, default false).
    package var powerCycleAdapter: Bool

    /// Settings as given; the defaults are kblinkd's.
    package init(
        deadline: Duration = .seconds(10), budget: Int = 3, backoff: Duration = .seconds(2),
        powerCycleAdapter: Bool = false
    ) {
        self.deadline = deadline
        self.budget = budget
        self.backoff = backoff
        self.powerCycleAdapter = powerCycleAdapter
    }
}
