import InsetCore
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkCommandLine

/// The expected grids are worked out by hand. Screen 1024 x 1366 on 60 x 24: a column is
/// max(1024 / 60, 1366 / 48) = 28.4583 pt and a row 56.9167 pt, so the screen takes 36 columns and 24 rows;
/// edges round to the nearest cell.
@Suite("InsetPicture")
struct InsetPictureTests {
    static func repeated(_ character: Character, _ count: Int) -> String {
        String(repeating: String(character), count: count)
    }

    /// Removes ANSI SGR escapes (ESC [ ... m).
    static func stripped(_ text: String) -> String {
        var output = ""
        var inEscape = false
        for character in text {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if character == "m" { inEscape = false }
            } else {
                output.append(character)
            }
        }
        return output
    }

    static func picture(_ request: InsetRequest, usesColor: Bool = false) -> InsetPicture {
        InsetPicture(request: request, answer: InsetResolver.resolve(request), usesColor: usesColor)
    }

    static let scenario1 = InsetRequest(
        screen: LayoutFixtures.screen,
        window: LayoutFixtures.fullScreenWindow,
        safeAreaBottom: 20,
        event: LayoutFixtures.show(LayoutFixtures.dockedKeyboard)
    )

    @Test("scenario 1: the reserved band fills the window's bottom from row 18 (1011 / 56.9 = 17.8)")
    func fullScreen() {
        // Lines carry no trailing spaces: the 24 blank columns right of the screen are left out.
        let margin = ""
        let edge = "+" + Self.repeated("-", 34) + "+" + margin
        let empty = "|" + Self.repeated(" ", 34) + "|" + margin
        let band = "|" + Self.repeated("=", 34) + "|" + margin
        // Band 1011...1346 (above SB 20): rows 18 ..< round(23.65) = 24; the outline takes row 23.
        let expected = [edge] + Array(repeating: empty, count: 17) + Array(repeating: band, count: 5) + [edge]
        #expect(Self.picture(Self.scenario1).lines == expected)
    }

    @Test("scenario 2: the keyboard lies below the Stage Manager window, nothing reserved")
    func stageManager() {
        let request = InsetRequest(
            screen: LayoutFixtures.screen,
            window: LayoutFixtures.stageManagerWindow,
            event: LayoutFixtures.show(LayoutFixtures.dockedKeyboard)
        )
        let margin = ""
        let screen = Self.repeated(".", 36) + margin
        // Window columns round(3.51) = 4 ..< round(28.11) = 28, rows round(1.76) = 2 ..< round(17.57) = 18.
        let edge = "...." + "+" + Self.repeated("-", 22) + "+" + Self.repeated(".", 8) + margin
        let inside = "...." + "|" + Self.repeated(" ", 22) + "|" + Self.repeated(".", 8) + margin
        // Keyboard rows round(17.76) = 18 ..< 24.
        let keyboard = Self.repeated("%", 36) + margin
        let expected =
            [screen, screen, edge] + Array(repeating: inside, count: 14) + [edge]
            + Array(repeating: keyboard, count: 6)
        let picture = Self.picture(request)
        #expect(picture.lines == expected)
        #expect(picture.render().hasSuffix("\n. screen  +-| window  % keyboard  = reserved 0 pt"))
    }

    @Test("the legend names the reserved inset")
    func legend() {
        #expect(Self.picture(Self.scenario1).legend.hasSuffix("= reserved 335 pt"))
    }

    @Test("colour mode adds escapes around the same characters")
    func colour() {
        let plain = Self.picture(Self.scenario1).render()
        let coloured = Self.picture(Self.scenario1, usesColor: true).render()
        #expect(coloured.contains("\u{1B}[33m="))  // the band in yellow
        #expect(coloured != plain)
        #expect(Self.stripped(coloured) == plain)
    }

    @Test("grid size is fixed and clamped", arguments: [(80, 30, 80, 30), (0, -4, 1, 1), (5000, 2, 1000, 2)])
    func gridSize(columns: Int, rows: Int, expectedColumns: Int, expectedRows: Int) {
        var picture = Self.picture(Self.scenario1)
        picture.columns = columns
        picture.rows = rows
        let lines = picture.lines
        #expect(lines.count == expectedRows)
        // The screen (1024 wide, 1366 tall) takes the grid's height; its width is at most the grid's.
        #expect(lines.allSatisfy { $0.count <= expectedColumns })
        #expect(lines.contains { !$0.isEmpty })
    }

    @Test("a band thinner than a row still shows")
    func thinBand() {
        let picture = InsetPicture(
            screen: LayoutFixtures.screen,
            window: LayoutFixtures.fullScreenWindow,
            reservedBand: Rect(x: 0, y: 1000, width: 1024, height: 5)
        )
        #expect(picture.lines.contains { $0.contains("=") })
    }

    @Test("degenerate input draws an empty grid and never crashes")
    func degenerate() {
        let empty = InsetPicture(screen: .zero, window: LayoutFixtures.fullScreenWindow)
        #expect(empty.lines.allSatisfy { $0.allSatisfy { $0 == " " } })
        let broken = InsetPicture(
            screen: LayoutFixtures.screen,
            window: Rect(x: .nan, y: 0, width: .infinity, height: 10),
            keyboard: Rect(x: -1e300, y: 1e300, width: 1e308, height: 1e308),
            reservedBand: Rect(x: 0, y: 0, width: .nan, height: 1)
        )
        #expect(broken.lines.count == 24)
        let tiny = InsetPicture(
            screen: Size(width: .leastNonzeroMagnitude, height: .leastNonzeroMagnitude),
            window: LayoutFixtures.fullScreenWindow)
        #expect(tiny.lines.count == 24)
    }

    @Test("the focused field is drawn where the slide puts it, ':' where it was, and the legend gives the slide")
    func focusedAndSlide() {
        var request = Self.scenario1
        // A field under the keyboard (1011 up): the guardian slides it up above the band.
        request.focus(frame: Rect(x: 100, y: 1100, width: 300, height: 40))
        let answer = InsetResolver.resolve(request)
        #expect(answer.slide > 0)
        let picture = InsetPicture(request: request, answer: answer)
        let lines = picture.lines
        let hash = lines.firstIndex { $0.contains("#") }
        let colon = lines.firstIndex { $0.contains(":") }
        #expect(hash != nil && colon != nil)
        if let hash, let colon { #expect(hash < colon, "the field is drawn above where it was") }
        #expect(picture.legend.contains("slid up \(PointFormat.text(answer.slide)) pt"))
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
    }

    @Test("the grid fits a terminal's width and the screen's shape")
    func fitsTerminal() {
        let wide = InsetPicture.size(fitting: 121, screen: LayoutFixtures.screen)
        #expect(wide.columns == 120)
        // 1366 / 1024 * 120 / 2 = 80.04, clamped to 60 lines.
        #expect(wide.rows == 60)
        let narrow = InsetPicture.size(fitting: 41, screen: Size(width: 1366, height: 1024))
        #expect(narrow.columns == 40 && narrow.rows == 15)
        #expect(InsetPicture.size(fitting: 0, screen: LayoutFixtures.screen).columns == 60)
    }
}
