import InsetCore
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkCommandLine

@Suite("CLI geometry arguments")
struct GeometryArgumentTests {
    @Test("sizes") func sizes() throws {
        #expect(try GeometryArgument.size("1024x1366", option: "--screen") == Size(width: 1024, height: 1366))
        #expect(try GeometryArgument.size("1024X1366", option: "--screen") == Size(width: 1024, height: 1366))
        #expect(try GeometryArgument.size(" 834.5 x 1194 ", option: "--screen") == Size(width: 834.5, height: 1194))
    }

    @Test("rectangles; the origin may be negative") func rects() throws {
        #expect(try GeometryArgument.rect("0,1011,1024,355", option: "--keyboard") == LayoutFixtures.dockedKeyboard)
        #expect(
            try GeometryArgument.rect("-100,-50.5,10,1e2", option: "--window")
                == Rect(x: -100, y: -50.5, width: 10, height: 100))
    }

    @Test("numbers") func numbers() throws {
        #expect(try GeometryArgument.number("20", option: "--safe-bottom") == 20)
        #expect(try GeometryArgument.number("-3", option: "--dismiss-padding", allowsNegative: true) == -3)
        #expect(try GeometryArgument.number("-0", option: "--safe-bottom").sign == .plus)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let kind: String
        let text: String
        let message: String
        var testDescription: String { "\(kind) '\(text)'" }
    }

    static let window = "--window expects X,Y,W,H such as 0,0,1024,1366; got"
    static let screen = "--screen expects WxH such as 1024x1366; got"
    static let safe = "--safe-bottom expects a number of points such as 20; got"

    static let bad: [Bad] = [
        Bad(kind: "rect", text: "10,20", message: "\(window) '10,20'"),
        Bad(kind: "rect", text: "1,2,3,4,5", message: "\(window) '1,2,3,4,5'"),
        Bad(kind: "rect", text: "", message: "\(window) ''"),
        Bad(kind: "rect", text: "0,0,-5,10", message: "\(window) '0,0,-5,10': the width must not be negative"),
        Bad(kind: "rect", text: "0,0,5,-1", message: "\(window) '0,0,5,-1': the height must not be negative"),
        Bad(kind: "rect", text: "0,0,nan,10", message: "\(window) '0,0,nan,10': 'nan' is not a number"),
        Bad(kind: "rect", text: "0,0,inf,10", message: "\(window) '0,0,inf,10': 'inf' is not a number"),
        Bad(kind: "rect", text: "0,0,1e999,10", message: "\(window) '0,0,1e999,10': '1e999' is too large"),
        Bad(kind: "rect", text: "0,,5,5", message: "\(window) '0,,5,5': an empty part is not a number"),
        Bad(kind: "rect", text: "0x10,0,5,5", message: "\(window) '0x10,0,5,5': '0x10' is not a number"),
        Bad(kind: "rect", text: "1-2,0,5,5", message: "\(window) '1-2,0,5,5': '1-2' is not a number"),
        Bad(kind: "size", text: "1024", message: "\(screen) '1024'"),
        Bad(kind: "size", text: "1x2x3", message: "\(screen) '1x2x3'"),
        Bad(kind: "size", text: "1024x-1", message: "\(screen) '1024x-1': the height must not be negative"),
        Bad(kind: "size", text: "abcxdef", message: "\(screen) 'abcxdef': 'abc' is not a number"),
        Bad(kind: "size", text: "1024×1366", message: "\(screen) '1024×1366'"),
        Bad(kind: "number", text: "-3", message: "\(safe) '-3': it must not be negative"),
        Bad(kind: "number", text: "twenty", message: "\(safe) 'twenty': 'twenty' is not a number"),
        Bad(kind: "number", text: "", message: "\(safe) '': an empty part is not a number"),
    ]

    @Test("bad arguments give a message with what was expected and what was given", arguments: bad)
    func refuses(_ bad: Bad) {
        do {
            switch bad.kind {
            case "rect": _ = try GeometryArgument.rect(bad.text, option: "--window")
            case "size": _ = try GeometryArgument.size(bad.text, option: "--screen")
            default: _ = try GeometryArgument.number(bad.text, option: "--safe-bottom")
            }
            Issue.record("accepted '\(bad.text)'")
        } catch {
            #expect(error.message == bad.message)
            #expect(error.description == bad.message)
        }
    }

    @Test("writes what it reads")
    func roundTrip() throws {
        let rect = Rect(x: -12.25, y: 167.5, width: 1024, height: 0.125)
        #expect(GeometryArgument.text(rect) == "-12.25,167.5,1024,0.125")
        #expect(try GeometryArgument.rect(GeometryArgument.text(rect), option: "--window") == rect)
        #expect(GeometryArgument.text(LayoutFixtures.screen) == "1024x1366")
    }
}
