import Glibc
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkService

/// The shipped `systemd/kblinkd.conf.example` documents every key with its default.
@Suite("kblinkd.conf.example")
struct ExampleConfigurationTests {
    static let examplePath = RepositoryFiles.path("systemd/kblinkd.conf.example")

    @Test("as shipped (everything commented out) it parses to the defaults without warnings")
    func asShipped() throws {
        let parsed = try DaemonConfiguration.load(path: Self.examplePath)
        #expect(parsed.configuration == DaemonConfiguration())
        #expect(parsed.warnings.isEmpty)
    }

    @Test("with every key uncommented it still gives the defaults, and it shows every key kblinkd reads")
    func uncommented() throws {
        let document = try INIDocument(parsing: try Self.uncommentedExample(), fileName: Self.examplePath)
        let parsed = try DaemonConfiguration.interpret(document)
        #expect(parsed.configuration == DaemonConfiguration())
        #expect(parsed.warnings.isEmpty)
        let shown = document.entries.map { "[\($0.section)] \($0.key)" }
        let known = DaemonConfiguration.keys.map { "[\($0.section)] \($0.name)" }
        #expect(shown == known)
    }

    /// The example with `#Key = value` lines turned into `Key = value`.
    static func uncommentedExample() throws -> String {
        let file = try #require(fopen(examplePath, "r"))
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            if line.hasPrefix("#"), let first = line.dropFirst().first, first.isLetter, line.contains(" = ") {
                text += line.dropFirst()
            } else {
                text += line
            }
        }
        return text
    }
}
