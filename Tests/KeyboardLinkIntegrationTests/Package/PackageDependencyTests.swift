import Foundation
import KeyboardLinkTestSupport
import Testing

/// Package.swift's arrows checked against the sources: every dependency a target declares is imported by one of its
/// files, and every module a file imports is the toolchain's or one its target declares. The compiler alone does not
/// keep either: SwiftPM lets a file import any module built before it, and keeps a dependency nobody imports. Test
/// targets are held to the same, and a unit-test target is named after the library target it tests.
@Suite struct PackageDependencyTests {
    @Test func everyDeclaredDependencyIsImportedAndEveryImportDeclared() async throws {
        let root = URL(fileURLWithPath: RepositoryFiles.root)
        let targets = try await PackageTargets.dump(packageDirectory: root.path)
        let moduleNames = Set(targets.map(\.name))
        var problems: [String] = []
        for target in targets where target.type != "system" && target.type != "binary" {
            let imports = try PackageTargets.imports(ofTargetAt: root.appendingPathComponent(target.path))
            if imports.isEmpty && target.dependencies.isEmpty { continue }
            let declared = Set(target.dependencies)
            for module in imports.keys.sorted() {
                if declared.contains(module) { continue }
                if moduleNames.contains(module) {
                    problems.append("\(target.name) imports \(module) (\(imports[module]!)) but does not declare it")
                } else if !PackageTargets.toolchainModules.contains(module) {
                    problems.append(
                        "\(target.name) imports \(module) (\(imports[module]!)), neither a target nor the toolchain's")
                }
            }
            // A C target (CReference) has no Swift files to import anything: only Swift targets are held to it.
            guard PackageTargets.hasSwiftSources(root.appendingPathComponent(target.path)) else { continue }
            for dependency in declared.sorted() where imports[dependency] == nil {
                problems.append("\(target.name) declares \(dependency) but no file of it imports it")
            }
            // Tests follow targets: a unit-test target is `<library>Tests`, depends on that library and not on the
            // umbrella; only the integration target tests the whole system.
            if target.type == "test" && target.name != "KeyboardLinkIntegrationTests" {
                let library = String(target.name.dropLast("Tests".count))
                if !target.name.hasSuffix("Tests") || !declared.contains(library) || !moduleNames.contains(library) {
                    problems.append("\(target.name) is not named after a library target it depends on")
                }
                if declared.contains("KeyboardLink") {
                    problems.append("\(target.name) depends on the umbrella instead of the targets it tests")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) mismatches:\n\(problems.joined(separator: "\n"))")
    }

    @Test func importsAreReadFromAFileHeaderOnly() {
        let text = """
            // A comment that says import Nothing.
            /* and a block
               import AlsoNothing */
            internal import CDBus
            @testable import KeyboardLinkDBus
            @preconcurrency import Dispatch
            import struct KeyboardLinkSupport.WallClockTime
            #if canImport(Glibc)
            import Glibc
            #endif

            let script = \"\"\"
                import dbus
                \"\"\"
            import Late
            """
        #expect(
            PackageTargets.imports(inSource: text)
                == ["CDBus", "KeyboardLinkDBus", "Dispatch", "KeyboardLinkSupport", "Glibc"])
    }
}

/// The targets of Package.swift as `swift package dump-package` describes them, and the imports of their files.
enum PackageTargets {
    /// One target: its name, kind (`regular`, `executable`, `test`, `system`), folder and declared dependencies.
    struct Target {
        var name: String
        var type: String
        var path: String
        var dependencies: [String]
    }

    /// Modules the toolchain provides, which no target declares.
    static let toolchainModules: Set<String> = [
        "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Glibc", "Musl", "Darwin", "Dispatch",
        "Synchronization", "Foundation", "FoundationEssentials", "FoundationInternationalization",
        "FoundationNetworking", "FoundationXML", "Testing", "XCTest",
    ]

    /// A product: its name, kind (`library`, `executable`) and targets.
    struct Product {
        var name: String
        var type: String
        var targets: [String]
    }

    /// The targets of the manifest.
    static func dump(packageDirectory: String) async throws -> [Target] {
        try await dumpManifest(packageDirectory: packageDirectory).targets
    }

    /// Runs `swift package dump-package` in a scratch directory of its own (the build directory's is locked while
    /// `swift test` runs) and reads the targets and the products.
    static func dumpManifest(packageDirectory: String) async throws -> (targets: [Target], products: [Product]) {
        let swift = try #require(
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
                .map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) },
            "swift is not on PATH")
        let scratch = try TemporaryDirectory()
        let result = try await runProcess(
            swift, ["package", "--package-path", packageDirectory, "--scratch-path", scratch.path, "dump-package"])
        try #require(result.status == 0, "swift package dump-package failed: \(result.standardError)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let targets = try #require(json["targets"] as? [[String: Any]])
        let products = try #require(json["products"] as? [[String: Any]])
        return (
            targets: try targets.map { target in
                let name = try #require(target["name"] as? String)
                let type = try #require(target["type"] as? String)
                let defaultFolder = type == "test" ? "Tests" : "Sources"
                let path = target["path"] as? String ?? "\(defaultFolder)/\(name)"
                let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                    // {"byName": [name, condition]}, {"target": [name, condition]}, {"product": [name, package, ...]}
                    dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
                }
                return Target(name: name, type: type, path: path, dependencies: dependencies)
            },
            products: try products.map { product in
                // "type": {"library": ["automatic"]} or {"executable": null}
                let type = try #require((product["type"] as? [String: Any])?.keys.first)
                return Product(
                    name: try #require(product["name"] as? String), type: type,
                    targets: product["targets"] as? [String] ?? [])
            }
        )
    }

    /// Whether the folder holds any Swift file.
    static func hasSwiftSources(_ folder: URL) -> Bool {
        swiftFiles(in: folder).contains { _ in true }
    }

    /// The modules the Swift files under `folder` import, each with one file that imports it.
    static func imports(ofTargetAt folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for file in swiftFiles(in: folder) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for module in imports(inSource: text) where result[module] == nil {
                result[module] = file.lastPathComponent
            }
        }
        return result
    }

    /// The modules a file imports: the `import` declarations of its header, before the first other declaration
    /// (so that `import` in a string or a comment further down, such as a Python script a test runs, is not read).
    static func imports(inSource text: String) -> [String] {
        let importLine =
            /^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?([A-Za-z_][A-Za-z0-9_]*)/
        var modules: [String] = []
        var inBlockComment = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if inBlockComment {
                if line.contains("*/") { inBlockComment = false }
                continue
            }
            if line.isEmpty || line.hasPrefix("//") || line.hasPrefix("#if") || line.hasPrefix("#else")
                || line.hasPrefix("#endif")
            {
                continue
            }
            if line.hasPrefix("/*") {
                inBlockComment = !line.contains("*/")
                continue
            }
            guard let match = line.firstMatch(of: importLine) else { break }
            modules.append(String(match.1))
        }
        return modules
    }

    static func swiftFiles(in folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }
}
