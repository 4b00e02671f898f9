import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkSupport

extension KeyboardHealth {
    /// The word, coloured on a terminal: green when it types, yellow while kblinkd heals it or waits, red-flagged
    /// (yellow, upper case) when it failed.
    func shown(in output: Output) -> String {
        switch self {
        case .working: output.green(rawValue)
        case .waiting, .healing: output.yellow(rawValue)
        case .failed: output.yellow("FAILED")
        case .asleep, .disconnected: rawValue
        }
    }
}

/// `kblink info`'s healing history in JSON: `health` and `healthDetail` are the keyboard's (in the list's object);
/// these follow them.
struct HealthDetails: Encodable, Sendable {
    /// One healing step.
    struct Heal: Encodable, Sendable {
        /// ISO 8601.
        let time: String
        let step: String
        let outcome: String
    }

    /// The last and median reconnect times.
    struct ReconnectTime: Encodable, Sendable {
        let lastMilliseconds: Int?
        let medianMilliseconds: Int?
        let count: Int
    }

    let heals: [Heal]
    let reconnectTime: ReconnectTime

    init(_ report: KeyboardHealthReport) {
        heals = report.heals.map {
            Heal(time: WallClockTime(secondsSince1970: $0.time).iso8601, step: $0.step, outcome: $0.outcome)
        }
        reconnectTime = ReconnectTime(
            lastMilliseconds: report.lastReconnectTime.map(Int.init),
            medianMilliseconds: report.medianReconnectTime.map(Int.init), count: report.reconnectTimes.count)
    }
}
