import Foundation
import KeyboardLinkTestSupport
import Testing

/// The public surface is what an embedder may call (docs/embedding.md): the library products of Package.swift. A
/// library target no product holds declares nothing `public` or `open`; what the package's other targets, tests and
/// benchmarks need of it is `package`. The few declarations a product's public API cannot do without are listed
/// here, each with the reason, so that the surface grows only on purpose.
@Suite struct PublicSurfaceTests {
    /// Files of targets no product holds that stay public, and why.
    static let publicByNecessity: [String: String] = [
        "Sources/KeyboardLink/BlueZ/Classification/BluetoothAddress.swift":
            "KBlinkAPI names a keyboard by it (KBlinkNames.keyboardPath, KeyboardMatcher), and so does the client's "
            + "PairingTarget",
        "Sources/KeyboardLink/BlueZ/Classification/BluetoothAddressError.swift":
            "what BluetoothAddress's initializers throw",
        "Sources/KeyboardLink/Support/Time/WallClockTime.swift":
            "KBlinkAPI's FirmwareSummary.readAt is one, and FirmwareSummary.readText(now:) takes one",
    ]

    @Test func targetsNoProductHoldsDeclareNothingPublic() async throws {
        let root = URL(fileURLWithPath: RepositoryFiles.root)
        let manifest = try await PackageTargets.dumpManifest(packageDirectory: root.path)
        let productTargets = Set(manifest.products.filter { $0.type == "library" }.flatMap(\.targets))
        // The embedders' products, one per layer, and nothing else: the umbrella is the package's own.
        #expect(productTargets == ["KeyboardLinkDBus", "KBlinkAPI", "KeyboardLinkClient"])
        let internalTargets = manifest.targets.filter { $0.type == "regular" && !productTargets.contains($0.name) }
        #expect(internalTargets.contains { $0.name == "KeyboardLinkService" })
        var problems: [String] = []
        var stillPublic: Set<String> = []
        for target in internalTargets {
            for file in PackageTargets.swiftFiles(in: root.appendingPathComponent(target.path)) {
                let relative = String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                let declarations = Self.publicDeclarations(inSource: try String(contentsOf: file, encoding: .utf8))
                if declarations.isEmpty { continue }
                if Self.publicByNecessity[relative] != nil {
                    stillPublic.insert(relative)
                    continue
                }
                for (line, text) in declarations {
                    problems.append("\(relative):\(line): \(text) (\(target.name) is in no product: use package)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) public declarations:\n\(problems.joined(separator: "\n"))")
        // The list names only files that still need it.
        #expect(stillPublic == Set(Self.publicByNecessity.keys))
    }

    @Test func publicDeclarationsAreReadFromCodeOnly() {
        let text = #"""
            // public func inAComment()
            /* public struct InABlock
               public var alsoInTheBlock */
            /// A `public` word in documentation.
            public struct Shown {
                @inlinable public func attributed() {}
                package var notPublic: Int
                public private(set) var narrowedSetter: Int
                nonisolated public func modified() {}
                open func overridable() {}
                let text = """
                    public let inAString = 1
                    """
                func open(_ path: String) {}
            }
            public extension Shown {}
            """#
        #expect(
            Self.publicDeclarations(inSource: text).map(\.line) == [5, 6, 8, 9, 10, 16])
    }

    /// The declarations of a Swift source whose access is `public` or `open`, with their line numbers (from 1).
    /// Comments and multi-line string literals are skipped.
    static func publicDeclarations(inSource text: String) -> [(line: Int, text: String)] {
        let declaration =
            /^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:nonisolated|final|static|class|override|indirect|convenience|required|mutating)\s+)*(?:public|open)\s/
        var found: [(line: Int, text: String)] = []
        var inBlockComment = false
        var inStringLiteral = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if inBlockComment {
                if line.contains("*/") { inBlockComment = false }
                continue
            }
            let quotes = line.ranges(of: "\"\"\"").count
            if inStringLiteral {
                if quotes % 2 == 1 { inStringLiteral = false }
                continue
            }
            if line.hasPrefix("/*") {
                inBlockComment = !line.contains("*/")
                continue
            }
            if line.hasPrefix("//") { continue }
            if line.firstMatch(of: declaration) != nil { found.append((index + 1, line)) }
            if quotes % 2 == 1 { inStringLiteral = true }
        }
        return found
    }
}
