import Testing

@testable import KeyboardLinkCommandLine

/// The CLI's JSON writer: plain strings copied in one go, the rest escaped byte by byte, same text either way.
@Suite("JSONValue rendering")
struct JSONValueRenderingTests {
    @Test(
        "strings render as JSON text",
        arguments: [
            ("Keyboard 0042", #""Keyboard 0042""#),
            ("", #""""#),
            ("Clavier à touches — ☃", #""Clavier à touches — ☃""#),
            (#"say "hi""#, #""say \"hi\"""#),
            (#"C:\keys"#, #""C:\\keys""#),
            ("line\nnext\tcol\r", #""line\nnext\tcol\r""#),
            ("bell\u{07}esc\u{1B}", #""bell\u0007esc\u001b""#),
            // The short escapes JSONEncoder uses (the profile codec shares the escaper); slashes stay unescaped.
            ("back\u{08}feed\u{0C}a/b", #""back\bfeed\fa/b""#),
            (
                String(repeating: "long plain text ", count: 40),
                "\"" + String(repeating: "long plain text ", count: 40) + "\""
            ),
        ])
    func strings(_ text: String, _ expected: String) {
        #expect(JSONValue.string(text).rendered() == expected)
        #expect(JSONValue.string(text).renderedBytes() == Array(expected.utf8))
    }

    @Test("objects keep their key order; keys are escaped like values")
    func objects() {
        let value = JSONValue.object([
            ("b\"", .integer(-3)), ("a", .array([.bool(true), .null, .number(1.5), .number(2)])),
            ("firmware", .object([("Notes", .string("PnP ID\ndisagrees"))])),
        ])
        let expected = #"{"b\"":-3,"a":[true,null,1.5,2],"firmware":{"Notes":"PnP ID\ndisagrees"}}"#
        #expect(value.rendered() == expected)
        #expect(value.renderedBytes(reservingCapacity: 1) == Array(expected.utf8))
        var streamed = Array("[".utf8)
        value.append(to: &streamed)
        #expect(streamed == Array(("[" + expected).utf8))
    }
}
