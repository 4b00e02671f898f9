import Glibc
import KeyboardLink

/// Issue 5's benchmark: keyboard events the layout core (`KeyboardLayoutState`) processes per second on one core,
/// in show / change / hide cycles with a guardian field registered and focused.
///
/// A phone-sized full-screen window (390 x 844 pt, bottom safe area 34, top limit 47) with one text field at
/// y 600..644: `willShow` of a docked 336 pt keyboard, `willChangeFrame` to 380 pt (the predictive bar appears),
/// `willHide`. Each cycle's reserved insets are 302, 346 and 0 and its slides 146, 190 and 0 (layout-core.md
/// rules 6 and 9, worked by hand), so every timed loop checks that it summed 984 points per cycle.
struct LayoutBenchmark: Sendable {
    /// Timed rounds per row.
    var rounds = 7
    /// Wall time one round aims at; the event count is calibrated to it.
    var secondsPerRound = 0.5

    /// What each event costs the caller besides `consume(_:)`.
    enum Variant: CaseIterable, Sendable {
        /// Reads the reserved inset and the slide (what an app's layout pass needs).
        case insetAndSlide
        /// Builds the whole `answer` (what the D-Bus and CLI front ends send).
        case fullAnswer
        /// Reads inset and slide with 16 fields registered, the focused one last.
        case manyFields

        var title: String {
            switch self {
            case .insetAndSlide: "consume + reservedInset + slide, 1 field"
            case .fullAnswer: "consume + answer (InsetAnswer), 1 field"
            case .manyFields: "consume + reservedInset + slide, 16 fields"
            }
        }
    }

    static let screen = Size(width: 390, height: 844)
    static let field = GuardedField(id: "message", frame: Rect(x: 16, y: 600, width: 358, height: 44))
    static let events = [
        KeyboardEvent(
            kind: .willShow, beginFrame: Rect(x: 0, y: 844, width: 390, height: 336),
            endFrame: Rect(x: 0, y: 508, width: 390, height: 336)),
        KeyboardEvent(
            kind: .willChangeFrame, beginFrame: Rect(x: 0, y: 508, width: 390, height: 336),
            endFrame: Rect(x: 0, y: 464, width: 390, height: 380)),
        KeyboardEvent(
            kind: .willHide, beginFrame: Rect(x: 0, y: 464, width: 390, height: 380),
            endFrame: Rect(x: 0, y: 844, width: 390, height: 380)),
    ]
    /// Reserved inset plus slide over one cycle, from the rules by hand: (302 + 146) + (346 + 190) + (0 + 0).
    static let pointsPerCycle = 984.0

    private struct Round: Sendable {
        var events: Int
        var wallSeconds: Double
        var cpuSeconds: Double
    }

    func run() async throws -> String {
        var rows: [[String]] = []
        var goalRates: [Double] = []
        var cpuRates: [Double] = []
        for variant in Variant.allCases {
            let rounds = self.rounds
            let target = secondsPerRound
            let samples = try await blockingThrows { () -> [Round] in
                let probe = try Self.measure(variant, cycles: 100_000)
                let cycles = max(10_000, Int(target / max(probe.wallSeconds, 1e-9) * 100_000))
                return try (0..<rounds).map { _ in try Self.measure(variant, cycles: cycles) }
            }
            let rates = Summary(samples.map { Double($0.events) / $0.wallSeconds })
            let perCPU = Summary(samples.map { Double($0.events) / $0.cpuSeconds })
            if variant == .insetAndSlide {
                goalRates = rates.samples
                cpuRates = perCPU.samples
            }
            rows.append([
                variant.title, Format.number(rates.min), Format.number(rates.median), Format.number(rates.mean),
                Format.number(perCPU.median), Format.number(1e9 / perCPU.median, decimals: 1),
                Format.number(Double(samples.first?.events ?? 0)),
            ])
        }
        let median = Summary(goalRates).median
        let cpuMedian = Summary(cpuRates).median
        return "Layout core: KeyboardLayoutState.consume over willShow / willChangeFrame / willHide cycles, "
            + "guardian field focused, one thread, \(rounds) rounds per row\n\n"
            + Format.table(
                [
                    "per event", "min events/s", "median events/s", "mean events/s", "events/CPU-s (median)",
                    "ns/event (CPU)", "events/round",
                ], rows)
            + "\n\nGoal: at least 5,000,000 events per second on one core: "
            + (median >= 5_000_000 ? "met" : "not met")
            + " (median \(Format.number(median)) per wall second, \(Format.number(cpuMedian)) per CPU second).\n"
    }

    /// Runs `cycles` show/change/hide cycles and checks the answers' sum.
    private static func measure(_ variant: Variant, cycles: Int) throws -> Round {
        var state = KeyboardLayoutState(geometry: .fullScreen(screen, safeAreaBottom: 34))
        state.setGuardianTopLimit(47)
        if variant == .manyFields {
            for index in 0..<15 {
                state.register(
                    GuardedField(
                        id: FieldID(rawValue: "field-\(index)"),
                        frame: Rect(x: 16, y: Double(80 + 30 * index), width: 358, height: 24)))
            }
        }
        state.register(field)
        state.focus(field.id)
        let events = Self.events
        var sum = 0.0
        let cpuStart = threadCPUSeconds()
        let clock = ContinuousClock()
        let began = clock.now
        switch variant {
        case .insetAndSlide, .manyFields:
            for _ in 0..<cycles {
                for event in events {
                    state.consume(event)
                    sum += state.reservedInset + state.slide
                }
            }
        case .fullAnswer:
            for _ in 0..<cycles {
                for event in events {
                    state.consume(event)
                    let answer = state.answer
                    sum += answer.reservedInset + answer.slide
                }
            }
        }
        let wall = (clock.now - began).seconds
        let cpu = threadCPUSeconds() - cpuStart
        guard sum == Double(cycles) * pointsPerCycle else {
            throw BenchError("the layout core summed \(sum) points over \(cycles) cycles, not \(pointsPerCycle) each")
        }
        return Round(events: cycles * events.count, wallSeconds: wall, cpuSeconds: cpu)
    }

    /// CPU time of the calling thread.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
