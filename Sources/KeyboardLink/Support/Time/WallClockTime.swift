#if canImport(Glibc)
    import Glibc
#endif

/// A point in wall-clock time (`CLOCK_REALTIME`): when firmware information was read. Written as ISO 8601 in UTC
/// to the second (`2026-11-29T12:18:42Z`), in the firmware cache and the exported `ReadAt`.
///
/// kblink's own replacement for Foundation's `Date`, so that kblinkd does not link FoundationEssentials.
public struct WallClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z (negative before).
    public var secondsSince1970: Int64
    /// Nanoseconds past `secondsSince1970`, 0 to 999,999,999.
    public var nanoseconds: Int32

    /// A time from its parts; `nanoseconds` is clamped to 0...999,999,999.
    public init(secondsSince1970: Int64, nanoseconds: Int32 = 0) {
        self.secondsSince1970 = secondsSince1970
        self.nanoseconds = min(max(nanoseconds, 0), 999_999_999)
    }

    /// The current time of the system clock.
    public static func now() -> WallClockTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallClockTime(secondsSince1970: Int64(spec.tv_sec), nanoseconds: Int32(spec.tv_nsec))
    }

    /// The same time without its fraction of a second (rounded down).
    public var wholeSeconds: WallClockTime { WallClockTime(secondsSince1970: secondsSince1970) }

    /// Seconds from `other` to `self`: positive when `self` is later.
    public func seconds(since other: WallClockTime) -> Double {
        Double(secondsSince1970 - other.secondsSince1970) + Double(nanoseconds - other.nanoseconds) / 1e9
    }

    public static func < (lhs: WallClockTime, rhs: WallClockTime) -> Bool {
        (lhs.secondsSince1970, lhs.nanoseconds) < (rhs.secondsSince1970, rhs.nanoseconds)
    }

    /// ISO 8601 in UTC to the second: `2026-11-29T12:18:42Z` (the fraction of a second is left out).
    public var iso8601: String {
        let days = Self.floorDivide(secondsSince1970, 86_400)
        let secondOfDay = secondsSince1970 - days * 86_400
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3_600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    /// ``iso8601``.
    public var description: String { iso8601 }

    /// Reads ISO 8601 date-time text: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of a second (`.25`), then `Z` or
    /// an offset (`+02:00`, `-0530`); nil when the text is not that or names no real time (`2026-02-30`).
    public init?(iso8601 text: String) {
        var scanner = Array(text.utf8)[...]
        func number(_ digits: Int) -> Int64? {
            guard scanner.count >= digits else { return nil }
            var value: Int64 = 0
            for byte in scanner.prefix(digits) {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            scanner = scanner.dropFirst(digits)
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard let byte = scanner.first, characters.utf8.contains(byte) else { return false }
            scanner = scanner.dropFirst()
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year), hour < 24,
            minute < 60, second < 60
        else { return nil }
        var nanoseconds: Int64 = 0
        if expect(".") {
            var digits = 0
            while let byte = scanner.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(byte - UInt8(ascii: "0")) }
                digits += 1
                scanner = scanner.dropFirst()
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
        }
        var offset: Int64 = 0
        if !expect("Zz") {
            guard let sign = scanner.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            scanner = scanner.dropFirst()
            guard let offsetHours = number(2) else { return nil }
            _ = expect(":")
            guard let offsetMinutes = number(2), offsetHours < 24, offsetMinutes < 60 else { return nil }
            offset = (offsetHours * 60 + offsetMinutes) * 60 * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        guard scanner.isEmpty else { return nil }
        let days = Self.daysSince1970(year: year, month: month, day: day)
        self.init(
            secondsSince1970: days * 86_400 + hour * 3_600 + minute * 60 + second - offset,
            nanoseconds: Int32(nanoseconds))
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, after Howard Hinnant's `days_from_civil`)

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension WallClockTime: Codable {
    /// Reads ISO 8601 text (``init(iso8601:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let time = WallClockTime(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text.prefix(40))' is not an ISO 8601 time (2026-11-29T12:18:42Z)")
        }
        self = time
    }

    /// Writes ``iso8601`` (to the second).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
