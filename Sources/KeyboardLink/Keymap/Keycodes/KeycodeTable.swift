/// The index behind every key name: parsed once from the tables in `KeycodeTable+Data.swift`.
///
/// Names are stored upper-cased; lookups upper-case their input, so `kc_a`, `KC_A` and `a` all work.
struct KeycodeTable: Sendable {
    /// One named key.
    struct Entry: Sendable {
        var usage: HIDUsage
        /// QMK names, the printed (short) one first, the long one second when there is one.
        var qmkNames: [String]
        /// ZMK names, the printed one first.
        var zmkNames: [String]
        /// The evdev name (`KEY_A`) and code (30), when Linux has one for this usage.
        var evdev: (name: String, code: UInt16)?
        /// Spelling-neutral names (`CTRL`, `SHIFT`, `MUTE`).
        var plainNames: [String]
        /// QMK's 8-bit basic keycode for this usage.
        var qmkBasicCode: UInt16

        /// The name macros print: the long QMK name, lower-cased, without `KC_` (`enter`, `left_ctrl`, `kp_1`).
        var macroName: String {
            let long = qmkNames.count > 1 ? qmkNames[1] : qmkNames[0]
            return String(long.dropFirst(3)).lowercased()
        }
    }

    /// The shared table.
    static let shared = KeycodeTable()

    /// Entries in table order.
    let entries: [Entry]
    /// Upper-cased name (any spelling, shifted symbols included) to key press.
    let byName: [String: KeyPress]
    /// Every name, in table order, for suggestions.
    let allNames: [String]
    /// Names that the tables give to two different keys (kept for the first); must stay empty.
    let conflictingNames: [String]
    private let byUsage: [HIDUsage: Int]
    private let byEvdevCode: [UInt16: HIDUsage]
    private let byQMKBasicCode: [UInt16: HIDUsage]

    private init() {
        var entries: [Entry] = []
        var byName: [String: KeyPress] = [:]
        var byUsage: [HIDUsage: Int] = [:]
        var byEvdevCode: [UInt16: HIDUsage] = [:]
        var byQMKBasicCode: [UInt16: HIDUsage] = [:]
        var order: [String] = []
        var conflicts: [String] = []

        func register(_ name: String, _ press: KeyPress) {
            // The tables are fixed data: a clash is a programming error, reported for the table's own test.
            if let existing = byName[name] {
                if existing != press { conflicts.append(name) }
                return
            }
            byName[name] = press
            order.append(name)
        }

        for line in Self.namedKeys.split(separator: "\n") {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.split(separator: " ").map(String.init)
            }
            guard fields.count == 6, let usage = Self.parseUsage(fields[0].first ?? "") else { continue }
            var evdev: (String, UInt16)?
            if fields[3].count == 2, let code = UInt16(fields[3][1]) { evdev = (fields[3][0], code) }
            let basic = fields[5].first.flatMap { UInt16($0, radix: 16) } ?? usage.id
            let entry = Entry(
                usage: usage, qmkNames: fields[1], zmkNames: fields[2], evdev: evdev, plainNames: fields[4],
                qmkBasicCode: basic)
            byUsage[usage] = entries.count
            entries.append(entry)
            for name in entry.qmkNames + entry.zmkNames + entry.plainNames { register(name, KeyPress(usage)) }
            if let evdev {
                register(evdev.0, KeyPress(usage))
                if byEvdevCode[evdev.1] == nil { byEvdevCode[evdev.1] = usage }
            }
            if byQMKBasicCode[basic] == nil { byQMKBasicCode[basic] = usage }
        }
        for line in Self.shiftedNames.split(separator: "\n") {
            let fields = line.split(separator: "|").map { $0.split(separator: " ").map(String.init) }
            guard fields.count == 3, let usage = Self.parseUsage(fields[0].first ?? "") else { continue }
            for name in fields[1] + fields[2] { register(name, KeyPress(usage, modifiers: .leftShift)) }
        }
        self.entries = entries
        self.byName = byName
        self.byUsage = byUsage
        self.byEvdevCode = byEvdevCode
        self.byQMKBasicCode = byQMKBasicCode
        self.allNames = order
        self.conflictingNames = conflicts
    }

    private static func parseUsage(_ text: String) -> HIDUsage? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let page = UInt16(parts[0], radix: 16), let id = UInt16(parts[1], radix: 16) else {
            return nil
        }
        return HIDUsage(page: page, id: id)
    }

    /// The entry for a usage, nil for usages without a name.
    func entry(for usage: HIDUsage) -> Entry? {
        byUsage[usage].map { entries[$0] }
    }

    /// The usage that Linux reports as this evdev key code.
    func usage(forEvdevCode code: UInt16) -> HIDUsage? { byEvdevCode[code] }

    /// The usage behind a QMK basic keycode (0x04-0xE7).
    func usage(forQMKBasicCode code: UInt16) -> HIDUsage? { byQMKBasicCode[code] }

    /// QMK's basic keycode for a usage, nil when QMK has none.
    func qmkBasicCode(for usage: HIDUsage) -> UInt16? { entry(for: usage)?.qmkBasicCode }
}
