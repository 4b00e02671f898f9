import Testing

@testable import KeyboardLinkService

@Suite("INIDocument")
struct INIDocumentTests {
    @Test("sections, keys, values, comments and whitespace, as in BlueZ's main.conf")
    func basics() throws {
        let text = """
            # a comment
            ; another comment
            [General]
              LogLevel   =   debug\t
            Name=kblink daemon = yes

            [Presence]
            Policy = any
            Empty =
            """
        let document = try INIDocument(parsing: text, fileName: "main.conf")
        #expect(document.sections.map(\.name) == ["General", "Presence"])
        #expect(document.sections.map(\.line) == [3, 7])
        #expect(
            document.entries == [
                .init(section: "General", key: "LogLevel", value: "debug", line: 4),
                .init(section: "General", key: "Name", value: "kblink daemon = yes", line: 5),
                .init(section: "Presence", key: "Policy", value: "any", line: 8),
                .init(section: "Presence", key: "Empty", value: "", line: 9),
            ])
        #expect(document.warnings.isEmpty)
    }

    @Test("a repeated key keeps its last value and warns with both lines")
    func duplicateKey() throws {
        let text = "[General]\nLogLevel = info\nLogLevel = debug\n"
        let document = try INIDocument(parsing: text, fileName: "k.conf")
        #expect(document.entry(section: "General", key: "LogLevel")?.value == "debug")
        #expect(document.values(section: "General", key: "LogLevel") == ["info", "debug"])
        #expect(document.effectiveEntries.map(\.value) == ["debug"])
        #expect(
            document.warnings.map(\.description) == [
                "k.conf:3: [General] LogLevel: set again (first set on line 2); the last value wins"
            ])
    }

    @Test("a section that appears twice is merged")
    func repeatedSection() throws {
        let document = try INIDocument(parsing: "[A]\nx = 1\n[B]\ny = 2\n[A]\nz = 3", fileName: "f")
        #expect(document.sections.map(\.name) == ["A", "B"])
        #expect(document.entry(section: "A", key: "z")?.line == 6)
    }

    @Test("CRLF line ends and a byte order mark are accepted")
    func windowsText() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[General]\r\nLogLevel = notice\r\n".utf8)
        let document = try INIDocument(parsing: bytes, fileName: "f")
        #expect(document.entry(section: "General", key: "LogLevel")?.value == "notice")
    }

    @Test(
        "malformed lines are errors with the line number",
        arguments: [
            (
                "[General]\nLogLevel info",
                "f:2: expected \"Key = value\", a \"[Section]\" header, or a comment starting with # or ;"
            ),
            (
                "LogLevel = info",
                "f:1: LogLevel: the key is outside any section; put it under a header such as [General]"
            ),
            ("\n[General\n", "f:2: a section header must end with ']' and have nothing after it, as in [General]"),
            ("[General] # x", "f:1: a section header must end with ']' and have nothing after it, as in [General]"),
            ("[  ]", "f:1: the section name is empty"),
            ("[a[b]", "f:1: the section name \"a[b\" must not contain brackets or control characters"),
            ("[General]\n = x", "f:2: [General]: a key name is missing before '='"),
            (
                "[General]\nLog Level = x",
                "f:2: [General]: the key name \"Log Level\" may only use ASCII letters, digits, '_', '-' and '.'"
            ),
        ])
    func malformed(text: String, message: String) {
        #expect {
            try INIDocument(parsing: text, fileName: "f")
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
    }

    @Test("bytes that are not UTF-8, or a NUL, are refused with the line")
    func encoding() {
        let latin1: [UInt8] = Array("[General]\nName = caf".utf8) + [0xE9]
        #expect(
            throws: ConfigurationError(
                file: "f", line: 2, message: "the line is not valid UTF-8; save the file as UTF-8")
        ) {
            try INIDocument(parsing: latin1, fileName: "f")
        }
        let nul: [UInt8] = Array("[General]\n\nName = a".utf8) + [0] + Array("b".utf8)
        #expect(throws: ConfigurationError(file: "f", line: 3, message: "the line contains a NUL byte")) {
            try INIDocument(parsing: nul, fileName: "f")
        }
    }

    @Test("an oversized file is refused before parsing")
    func oversized() {
        let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: INIDocument.maximumSize + 1)
        #expect(throws: ConfigurationError.self) { try INIDocument(parsing: bytes, fileName: "f") }
    }

    @Test("an empty file is an empty document")
    func empty() throws {
        let document = try INIDocument(parsing: "", fileName: "f")
        #expect(document.sections.isEmpty)
        #expect(document.entries.isEmpty)
    }
}
