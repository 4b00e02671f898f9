/// Names the parts of a keyboard whose batteries it reports, one name per Battery Level characteristic.
///
/// The rule, for the characteristics in GATT handle order (BlueZ's object path order):
/// 1. A characteristic with a Characteristic User Description (0x2901) is named after it: lowercased, every run of
///    characters other than `a-z` and `0-9` turned into one `-`, leading and trailing `-` dropped, at most 32
///    characters ("Left" -> `left`, "Right" -> `right`, ZMK's "Peripheral 0" -> `peripheral-0`).
/// 2. Otherwise (no description, or one with nothing left after rule 1) it is named by its position: the first
///    characteristic is `main`, the n-th is `part<n>` (`part2`, `part3`...). Split keyboards do not say which half
///    is which, so kblink does not guess `left`/`right` from the order.
/// 3. A name already given to an earlier characteristic gets `-2`, `-3`... appended, so names are unique.
package enum BatteryPartNamer {
    /// The name of each part, in the order of `userDescriptions` (nil where a characteristic has no description).
    package static func names(userDescriptions: [String?]) -> [String] {
        var used = Set<String>()
        var names: [String] = []
        names.reserveCapacity(userDescriptions.count)
        for (index, description) in userDescriptions.enumerated() {
            var name = description.map(slug) ?? ""
            if name.isEmpty { name = index == 0 ? "main" : "part\(index + 1)" }
            var unique = name
            var suffix = 2
            while used.contains(unique) {
                unique = "\(name)-\(suffix)"
                suffix += 1
            }
            used.insert(unique)
            names.append(unique)
        }
        return names
    }

    /// Rule 1: `Peripheral 0` -> `peripheral-0`.
    static func slug(_ text: String) -> String {
        var result = ""
        var pendingDash = false
        for scalar in text.unicodeScalars {
            let lower = scalar.properties.lowercaseMapping
            if lower.unicodeScalars.count == 1, let only = lower.unicodeScalars.first,
                (only >= "a" && only <= "z") || (only >= "0" && only <= "9")
            {
                if pendingDash && !result.isEmpty { result += "-" }
                pendingDash = false
                result.unicodeScalars.append(only)
            } else {
                pendingDash = true
            }
        }
        var trimmed = String(result.prefix(32))
        while trimmed.hasSuffix("-") { trimmed.removeLast() }
        return trimmed
    }
}
