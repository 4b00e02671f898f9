/// A named sequence of key taps, presses, releases, delays and text, as VIA plays it.
///
/// Build one by parsing its text form (`Macro(parsing:)`, syntax in `Macro+Syntax.swift`) or from steps; both
/// validate. `description` prints the text form, which parses back to the same macro.
package struct Macro: Hashable, Sendable {
    /// The steps, in order.
    package let steps: [MacroStep]

    /// The longest delay one step may have, in milliseconds.
    package static let maximumDelay = 10_000
    /// The most steps a macro may have (far beyond any VIA macro buffer).
    package static let maximumSteps = 1_000
    /// The longest text one step may have.
    package static let maximumTextLength = 1_000

    /// Creates a macro from steps after checking them.
    /// - Throws: `KeymapError.invalidMacro` naming the first broken rule: no steps or too many, a delay outside
    ///   0-10000 ms, empty text or text that is not printable ASCII (what VIA can type), a key that QMK's macro
    ///   encoding cannot send.
    package init(steps: [MacroStep]) throws(KeymapError) {
        guard !steps.isEmpty else { throw .invalidMacro("a macro needs at least one step") }
        guard steps.count <= Self.maximumSteps else {
            throw .invalidMacro("a macro may have at most \(Self.maximumSteps) steps, this one has \(steps.count)")
        }
        for (index, step) in steps.enumerated() {
            try Self.validate(step, number: index + 1)
        }
        self.steps = steps
    }

    /// For steps that are valid by construction (decoders that validated each step already).
    init(trustedSteps steps: [MacroStep]) {
        self.steps = steps
    }

    private static func validate(_ step: MacroStep, number: Int) throws(KeymapError) {
        switch step {
        case .delay(let milliseconds):
            guard (0...maximumDelay).contains(milliseconds) else {
                throw .invalidMacro("step \(number): delay \(milliseconds) ms is outside 0 to \(maximumDelay) ms")
            }
        case .text(let text):
            guard !text.isEmpty else { throw .invalidMacro("step \(number): the text is empty") }
            guard text.utf8.count <= maximumTextLength else {
                throw .invalidMacro("step \(number): text longer than \(maximumTextLength) characters")
            }
            guard text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw .invalidMacro(
                    "step \(number): text may hold printable ASCII only (VIA types it with a US layout); "
                        + "use key steps for anything else")
            }
        case .tap(let press):
            try validateKey(press.usage, number: number)
            for member in press.modifiers.members {
                if let usage = member.usage { try validateKey(usage, number: number) }
            }
        case .press(let usage), .release(let usage):
            try validateKey(usage, number: number)
        }
    }

    private static func validateKey(_ usage: HIDUsage, number: Int) throws(KeymapError) {
        guard let code = KeycodeTable.shared.qmkBasicCode(for: usage), (0x04...0xFF).contains(code) else {
            throw .invalidMacro("step \(number): \(KeyAction.key(usage)) cannot be sent by a macro")
        }
    }
}
