import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// `kblink insets` as issue 20 asks: honest wording, camelCase JSON, a picture that agrees with the numbers. The
/// real `kblink` against `kblinkd-demo`.
@Suite("kblink insets says what it did")
struct InsetsTrustTests {
    static let request = [
        "insets", "--screen", "1024x1366", "--keyboard", "0,1011,1024,355", "--hardware-keyboard", "no",
    ]

    @Test("--local says it was asked for, not that kblinkd is unreachable; --duration names seconds")
    func wording() async throws {
        try await DemoDaemon.run { demo in
            let local = try await demo.ok(Array(Self.request.dropLast(2)) + ["--local"])
            #expect(local.contains("as --local asks"), "\(local)")
            #expect(!local.contains("not reachable"))
            let duration = try await demo.kblink(Self.request + ["--duration", "-1"])
            #expect(duration.status == 2)
            #expect(
                duration.standardError.contains("--duration expects a number of seconds"), "\(duration.standardError)")
        }
    }

    @Test("--picture draws the inset the answer gives, the focused field and its slide, with no trailing spaces")
    func picture() async throws {
        try await DemoDaemon.run { demo in
            let text = try await demo.ok(Self.request + ["--focused", "100,1100,300,40", "--picture"])
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let inset = try #require(lines.first { $0.hasPrefix("inset:") }).split(separator: " ").last.map(String.init)
            let slide = try #require(lines.first { $0.hasPrefix("slide:") }).split(separator: " ").last.map(String.init)
            let legend = try #require(lines.last { $0.hasPrefix(". screen") })
            #expect(legend.contains("= reserved \(inset ?? "?") pt"), "\(legend)")
            #expect(legend.contains("slid up \(slide ?? "?") pt"), "\(legend)")
            #expect(lines.contains { $0.contains("=") && $0.hasPrefix("|") })
            #expect(lines.contains { $0.contains("#") })
            #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
        }
    }
}
