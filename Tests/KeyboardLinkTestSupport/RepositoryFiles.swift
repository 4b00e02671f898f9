/// Paths of files checked into the repository, found from this source file's location.
package enum RepositoryFiles {
    /// The repository root: this file is `Tests/KeyboardLinkTestSupport/RepositoryFiles.swift`.
    package static let root: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    /// The absolute path of `relative` inside the repository.
    package static func path(_ relative: String) -> String { root + "/" + relative }

    package static var policy: String { path("systemd/org.kblink1.conf") }
    package static var unit: String { path("systemd/kblinkd.service") }
    package static var activation: String { path("systemd/org.kblink1.service") }
}
