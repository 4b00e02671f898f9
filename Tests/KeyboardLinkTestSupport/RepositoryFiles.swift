/// Paths of files checked into the repository, found from this source file's location.
enum RepositoryFiles {
    /// The repository root: this file is `Tests/KeyboardLinkIntegrationTests/Policy/RepositoryFiles.swift`.
    static let root: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(4)
        return components.joined(separator: "/")
    }()

    /// The absolute path of `relative` inside the repository.
    static func path(_ relative: String) -> String { root + "/" + relative }

    static var policy: String { path("systemd/org.kblink1.conf") }
    static var unit: String { path("systemd/kblinkd.service") }
    static var activation: String { path("systemd/org.kblink1.service") }
}
