import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkClient
import Testing

@testable import KeyboardLinkCommandLine

/// The pairing view: block digits, typed marks, plain lines.
@Suite struct PairingViewTests {
    static let target = PairingTarget(address: BluetoothAddress(validating: "DC:2C:26:00:00:03")!, name: "Keychron K3")

    @Test func blockDigitsAreFiveRowsOfFiveColumns() throws {
        for digit in "0123456789" {
            let glyph = try #require(BlockDigits.glyph(digit))
            #expect(glyph.count == 5)
            #expect(glyph.allSatisfy { $0.count == 5 })
        }
        let glyphs = "0123456789".compactMap { BlockDigits.glyph($0) }
        #expect(Set(glyphs).count == 10, "every digit looks different")
        #expect(BlockDigits.glyph("0") == ["█████", "█   █", "█   █", "█   █", "█████"])
        #expect(BlockDigits.glyph("x") == nil)
    }

    @Test func aPasskeyIsDrawnInTwoGroupsOfThree() throws {
        let rows = try #require(BlockDigits.draw("111000"))
        #expect(rows.count == 5)
        #expect(rows[0] == "  █      █      █      █████  █████  █████")
        #expect(rows.allSatisfy { $0.count == 42 })
        #expect(BlockDigits.draw("12a") == nil)
        #expect(BlockDigits.draw("") == nil)
    }

    @Test func typedDigitsAreMarked() {
        var view = PairingView(target: Self.target)
        view.apply(.prompt(PairingPromptRelay(kind: .displayPasskey, code: "004821", entered: 2)))
        let lines = view.terminalLines(color: false)
        #expect(lines[0] == "Pairing with Keychron K3 (DC:2C:26:00:00:03)")
        #expect(lines[2] == "  █████  █████  █   █    █████  █████    █  ")
        #expect(lines[7] == "    ●      ●      ○        ○      ○      ○")
        #expect(lines.last?.hasSuffix("2 of 6 typed; waiting for the keyboard…") == true)
        #expect(!lines.joined().contains("\u{1B}["))
        let colored = view.terminalLines(color: true)
        #expect(colored[2].contains("\u{1B}[32m"), "typed digits are green")
    }

    @Test func plainLinesSayEachThingOnce() {
        var view = PairingView(target: Self.target)
        var lines: [String] = []
        for entered in UInt16(0)...6 {
            if let line = view.apply(
                .prompt(PairingPromptRelay(kind: .displayPasskey, code: "004821", entered: entered)))
            {
                lines.append(line)
            }
        }
        // A repeated prompt (the same count again) says nothing new.
        if let line = view.apply(.prompt(PairingPromptRelay(kind: .displayPasskey, code: "004821", entered: 6))) {
            lines.append(line)
        }
        #expect(lines.first == "Type 004821 on the keyboard, then press Enter.")
        #expect(lines.count == 7)
        #expect(lines.last == "  6 of 6 typed: press Enter")
        #expect(
            view.apply(.prompt(PairingPromptRelay(kind: .displayPinCode, code: "123456")))
                == "Type the PIN 123456 on the keyboard, then press Enter.")
    }

    @Test func theEndReplacesTheDigits() {
        var view = PairingView(target: Self.target)
        view.apply(.prompt(PairingPromptRelay(kind: .displayPasskey, code: "004821")))
        view.note = "Canceling…"
        view.apply(
            .ended(PairingResult(keyboard: Self.target.keyboard, error: KBlinkError.canceled("nothing was kept"))))
        #expect(
            view.terminalLines(color: false) == [
                "Pairing with Keychron K3 (DC:2C:26:00:00:03)", "", "✗ nothing was kept",
            ])
        view.apply(.ended(PairingResult(keyboard: Self.target.keyboard, error: nil)))
        #expect(view.terminalLines(color: false).last == "✓ Keychron K3 is paired, trusted and connected.")
    }

    @Test func waitingShowsTheSpinner() {
        var view = PairingView(target: PairingTarget(address: Self.target.address, name: "DC:2C:26:00:00:03"))
        let first = view.terminalLines(color: false)
        view.spinnerFrame += 1
        let second = view.terminalLines(color: false)
        #expect(first[0] == "Pairing with DC:2C:26:00:00:03")
        #expect(first.last?.hasPrefix("⠋ ") == true)
        #expect(second.last?.hasPrefix("⠙ ") == true)
    }

    @Test func framesReplaceThePreviousOne() {
        var frame = TerminalFrame()
        #expect(frame.render(["a", "b"]) == "a\nb\n")
        #expect(frame.render(["c"]) == "\u{1B}[2F\u{1B}[Jc\n")
        #expect(frame.render([]) == "\u{1B}[1F\u{1B}[J")
        #expect(frame.lineCount == 0)
    }
}
