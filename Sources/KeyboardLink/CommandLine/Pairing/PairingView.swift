import KBlinkAPI
import KeyboardLinkClient

/// What `kblink pair` shows: on a terminal the passkey in block digits with the typed ones marked and a spinner
/// while waiting; in a pipe one plain line per event.
package struct PairingView: Sendable, Equatable {
    /// What the view shows now.
    package enum Phase: Sendable, Equatable {
        /// Looking for the keyboard or waiting for BlueZ, before any prompt.
        case waiting
        case prompt(PairingPromptRelay)
        case ended(PairingResult)
    }

    /// The braille spinner's frames.
    package static let spinner: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// The keyboard being paired.
    package var target: PairingTarget
    /// What is shown now.
    package var phase: Phase = .waiting
    /// Advanced by a timer while waiting.
    package var spinnerFrame = 0
    /// A note under the view, such as "Canceling…".
    package var note: String?

    /// A view waiting for the first prompt.
    package init(target: PairingTarget) {
        self.target = target
    }

    /// Takes an event; returns the plain line to print for it in a pipe (nil when there is nothing new to say).
    @discardableResult
    package mutating func apply(_ event: PairingEvent) -> String? {
        let previous: PairingPromptRelay?
        if case .prompt(let shown) = phase { previous = shown } else { previous = nil }
        switch event {
        case .prompt(let prompt):
            phase = .prompt(prompt)
            return Self.plainLine(for: prompt, after: previous)
        case .ended(let result):
            phase = .ended(result)
            return nil
        }
    }

    /// The pipe line for a prompt: the instruction when the code is new, then the typing progress.
    static func plainLine(for prompt: PairingPromptRelay, after previous: PairingPromptRelay?) -> String? {
        let sameCode = previous?.kind == prompt.kind && previous?.code == prompt.code
        if !sameCode {
            let instruction = prompt.kind.instruction(code: prompt.code)
            return prompt.entered > 0 ? instruction + " (\(prompt.entered) of 6 typed)" : instruction
        }
        guard prompt.kind == .displayPasskey, prompt.entered != previous?.entered else { return nil }
        return prompt.entered >= 6 ? "  6 of 6 typed: press Enter" : "  \(prompt.entered) of 6 typed"
    }

    /// The lines for a terminal.
    /// - Parameter color: use ANSI colours (typed digits green, failures red).
    package func terminalLines(color: Bool) -> [String] {
        func paint(_ code: String, _ text: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        let spin = Self.spinner[spinnerFrame % Self.spinner.count]
        let title = target.name == target.address.description ? "" : " (\(target.address))"
        // The name comes over the air: escape any control characters before it reaches the terminal.
        let name = target.name.escapedForTerminalLine
        var lines = ["Pairing with " + paint("1", name) + title, ""]
        switch phase {
        case .waiting:
            lines.append("\(spin) Looking for the keyboard and asking it to pair… put it in pairing mode.")
        case .prompt(let prompt):
            let typed = prompt.kind == .displayPasskey ? Int(prompt.entered) : 0
            let big = BlockDigits.draw(prompt.code) { index, part in
                index < typed ? paint("32", part) : paint("1", part)
            }
            if let big {
                lines += big.map { "  " + $0 }
                if prompt.kind == .displayPasskey {
                    lines.append("  " + Self.marks(count: prompt.code.count, typed: typed, paint: paint))
                }
            } else {
                lines.append("  " + paint("1", prompt.code))
            }
            lines.append("")
            switch prompt.kind {
            case .displayPasskey:
                lines.append("Type these 6 digits on the keyboard, then press Enter.")
                lines.append(
                    typed >= 6
                        ? "\(spin) All 6 typed: press Enter on the keyboard."
                        : "\(spin) \(typed) of 6 typed; waiting for the keyboard…")
            case .displayPinCode:
                lines.append("Type this PIN on the keyboard, then press Enter.")
                lines.append("\(spin) Waiting for the keyboard…")
            case .confirmPasskey:
                lines.append("The keyboard should show the same number; if it shows another, answer no.")
            case .authorize:
                lines.append("The keyboard asks to pair without a code: allow it only if it is yours.")
            case .unlock:
                lines.append("Press the keyboard's unlock key.")
                lines.append("\(spin) Waiting for the keyboard…")
            }
        case .ended(let result):
            if let error = result.error {
                lines.append(paint("31", "✗ ") + error.message.escapingTerminalControls)
            } else {
                lines.append(paint("32", "✓ ") + "\(name) is paired, trusted and connected.")
            }
        }
        if let note, !isEnded { lines.append(note) }
        return lines
    }

    /// One mark under each digit: `●` typed, `○` not yet.
    static func marks(count: Int, typed: Int, paint: (String, String) -> String) -> String {
        var line = ""
        // Columns written so far, not counting the escape codes around a painted mark.
        var column = 0
        for index in 0..<count {
            let start = BlockDigits.column(of: index, count: count) + BlockDigits.width / 2
            line += String(repeating: " ", count: max(0, start - column))
            line += index < typed ? paint("32", "●") : "○"
            column = start + 1
        }
        return line
    }

    var isEnded: Bool {
        if case .ended = phase { return true }
        return false
    }
}
