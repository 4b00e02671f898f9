import KeyboardLinkSupport

/// How old a reading is, in words for people: `just now`, `3 minutes ago`, `1 hour ago`, `2 days ago`.
public enum FirmwareAge {
    /// The age of a reading taken at `readAt`, seen at `now`. Under a minute (or in the future, when clocks
    /// disagree) is `just now`; then whole minutes, hours and days, rounded down.
    public static func text(readAt: WallClockTime, now: WallClockTime) -> String {
        let seconds = now.seconds(since: readAt)
        guard seconds >= 60, seconds.isFinite else { return "just now" }
        let (count, unit): (Int, String) =
            if seconds < 3_600 {
                (Int(seconds / 60), "minute")
            } else if seconds < 86_400 {
                (Int(seconds / 3_600), "hour")
            } else {
                (Int(min(seconds / 86_400, Double(Int.max / 2))), "day")
            }
        return "\(count) \(unit)\(count == 1 ? "" : "s") ago"
    }
}
