import Testing

@testable import KeyboardLinkSupport

/// `--timeout S` and the other seconds options: plain decimal numbers only, within the range.
@Suite("ParsedArguments seconds")
struct ParsedArgumentsSecondsTests {
    static func seconds(_ text: String) throws -> Double {
        let arguments = try ParsedArguments(["--timeout", text], flags: [], options: ["--timeout"])
        return try arguments.seconds("--timeout", default: 10, range: 1...300)
    }

    @Test(
        "plain decimal numbers are read",
        arguments: [("1", 1.0), ("16", 16.0), ("2.5", 2.5), ("300", 300.0), ("0010", 10.0)])
    func accepted(_ text: String, _ expected: Double) throws {
        #expect(try Self.seconds(text) == expected)
    }

    @Test(
        "anything else is a usage error naming the option and the text",
        arguments: [
            "0x10", "1e1", "+5", "-5", " 5", "5 ", "inf", "nan", "infinity", "0x1p4", "", ".", "5.", ".5",
            "1_0", "٣", "0", "301", "1.2.3",
        ])
    func rejected(_ text: String) throws {
        let error = try #require(throws: ParsedArguments.UsageError.self) { try Self.seconds(text) }
        #expect(error.message == "--timeout expects seconds between 1 and 300; got '\(text)'")
    }

    @Test("without the option, the default")
    func fallback() throws {
        let arguments = try ParsedArguments([], flags: [], options: ["--timeout"])
        #expect(try arguments.seconds("--timeout", default: 7, range: 1...300) == 7)
    }
}
