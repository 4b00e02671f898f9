import FoundationEssentials
import Glibc
import Testing

@testable import KeyboardLinkSupport

/// `WallClockTime`: ISO 8601 text in UTC, checked against known dates and against Foundation's `Date`.
@Suite struct WallClockTimeTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"), (951_782_400, "2000-02-29T00:00:00Z"),
        (1_760_000_000, "2025-10-09T08:53:20Z"), (1_764_419_922, "2025-11-29T12:38:42Z"),
        (4_107_542_399, "2100-02-28T23:59:59Z"), (-62_135_596_800, "0001-01-01T00:00:00Z"),
    ])
    func knownTimes(seconds: Int64, text: String) {
        let time = WallClockTime(secondsSince1970: seconds, nanoseconds: 999_000_000)
        #expect(time.iso8601 == text)
        #expect(WallClockTime(iso8601: text) == WallClockTime(secondsSince1970: seconds))
    }

    @Test func agreesWithFoundation() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: -2_000_000_000...6_000_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(seconds))
            #expect(WallClockTime(secondsSince1970: seconds).iso8601 == date.formatted(.iso8601))
            #expect(WallClockTime(iso8601: date.formatted(.iso8601))?.secondsSince1970 == seconds)
        }
    }

    @Test(arguments: [
        ("2025-10-09T10:53:20+02:00", Int64(1_760_000_000), Int32(0)),
        ("2025-10-09T03:23:20-0530", 1_760_000_000, 0),
        ("2025-10-09t08:53:20.75z", 1_760_000_000, 750_000_000),
        ("2025-10-09T08:53:20.123456789123Z", 1_760_000_000, 123_456_789),
    ])
    func offsetsAndFractions(text: String, seconds: Int64, nanoseconds: Int32) {
        #expect(WallClockTime(iso8601: text) == WallClockTime(secondsSince1970: seconds, nanoseconds: nanoseconds))
    }

    @Test(arguments: [
        "", "yesterday", "2026-02-29T00:00:00Z", "2025-13-01T00:00:00Z", "2025-10-09 08:53:20Z", "2025-10-09T08:53:20",
        "2025-10-09T24:00:00Z", "2025-10-09T08:60:00Z", "2025-10-09T08:53:20.Z", "2025-10-09T08:53:20Zx",
        "2025-10-00T08:53:20Z", "2025-1-09T08:53:20Z", "2025-10-09T08:53:20+2:00",
    ])
    func malformedTextIsRefused(text: String) {
        #expect(WallClockTime(iso8601: text) == nil)
    }

    @Test func secondsBetweenTimes() {
        let earlier = WallClockTime(secondsSince1970: 100, nanoseconds: 750_000_000)
        let later = WallClockTime(secondsSince1970: 102, nanoseconds: 250_000_000)
        #expect(later.seconds(since: earlier) == 1.5)
        #expect(earlier.seconds(since: later) == -1.5)
        #expect(earlier < later)
        #expect(later.wholeSeconds == WallClockTime(secondsSince1970: 102))
    }

    /// Read against `clock_gettime(CLOCK_REALTIME)`, not `time(nil)`: glibc's `time` reads the coarse clock, which
    /// can still show the previous second just after the precise clock passed a second boundary.
    @Test func nowIsTheSystemClock() {
        func realtimeSeconds() -> Int64 {
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            return Int64(spec.tv_sec)
        }
        let before = realtimeSeconds()
        let now = WallClockTime.now()
        let after = realtimeSeconds()
        #expect(now.secondsSince1970 >= before && now.secondsSince1970 <= after)
    }

    @Test func codableAsText() throws {
        let time = WallClockTime(secondsSince1970: 1_760_000_000)
        #expect(
            String(decoding: try JSONCodec.encode([time], options: []), as: UTF8.self) == #"["2025-10-09T08:53:20Z"]"#)
        #expect(try JSONCodec.decode([WallClockTime].self, from: Array(#"["2025-10-09T08:53:20Z"]"#.utf8)) == [time])
        let error = try #require(throws: DecodingError.self) {
            try JSONCodec.decode([WallClockTime].self, from: Array(#"["soon"]"#.utf8))
        }
        #expect(JSONCodec.describe(error).hasPrefix("[0]: 'soon' is not an ISO 8601 time"))
    }
}
