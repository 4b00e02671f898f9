import Glibc

/// Profiles on disk: one JSON file per keyboard, `<directory>/<AA_BB_CC_DD_EE_FF>.json`.
///
/// Writes are atomic (see `FileStore`). A file that does not parse is moved aside to
/// `<name>.corrupt-<unix time>` and reported as `.corrupt`, never deleted or overwritten.
public struct ProfileStore: Sendable {
    /// Where the profiles live (created with mode 0700 on the first save).
    public let directory: String
    private let files: FileStore
    private let clock: @Sendable () -> Int64

    /// A store in a directory, typically `<state dir>/profiles`.
    public init(directory: String) {
        self.init(directory: directory, files: FileStore(), clock: { Int64(time(nil)) })
    }

    init(directory: String, files: FileStore, clock: @escaping @Sendable () -> Int64) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.files = files
        self.clock = clock
    }

    /// The result of loading a profile.
    public enum LoadResult: Sendable, Equatable {
        /// The profile.
        case loaded(StoredProfile)
        /// There is no profile for this keyboard yet.
        case notFound
        /// The file did not parse; it was moved aside and kept.
        case corrupt(CorruptProfile)
    }

    /// A profile file that did not parse.
    public struct CorruptProfile: Sendable, Equatable {
        /// Where the file was.
        public var path: String
        /// Where it was moved to.
        public var preservedAt: String
        /// Why it did not parse.
        public var reason: KeymapError
    }

    /// The path of a keyboard's profile.
    public func path(for address: KeyboardAddress) -> String {
        "\(directory)/\(address.fileStem).json"
    }

    /// Loads a keyboard's profile.
    /// - Throws: `KeymapError.io` when the file cannot be read or moved aside (a parse failure is not thrown: it
    ///   is the `.corrupt` result).
    public func load(_ address: KeyboardAddress) throws(KeymapError) -> LoadResult {
        let path = path(for: address)
        let contents: [UInt8]?
        do {
            contents = try files.read(path)
        } catch .io(_, _, EFBIG) {
            // Too large to be a profile kblink wrote: as unreadable as a parse failure.
            let preserved = try files.setAside(path, suffix: ".corrupt-\(clock())")
            let reason = KeymapError.invalidProfile("the file is larger than \(FileStore.maximumReadSize >> 20) MiB")
            return .corrupt(CorruptProfile(path: path, preservedAt: preserved, reason: reason))
        }
        guard let bytes = contents else { return .notFound }
        do throws(KeymapError) {
            let profile = try StoredProfile(json: bytes)
            guard profile.address == address else {
                throw .invalidProfile("the file holds the profile of \(profile.address), not \(address)")
            }
            return .loaded(profile)
        } catch {
            let preserved = try files.setAside(path, suffix: ".corrupt-\(clock())")
            return .corrupt(CorruptProfile(path: path, preservedAt: preserved, reason: error))
        }
    }

    /// Saves a keyboard's profile atomically.
    /// - Returns: nil, or a durability warning: the profile was saved (it is the file now) but syncing its
    ///   directory failed, so a power loss soon after might bring back the previous one.
    /// - Throws: `KeymapError.io`; the previous profile is then intact.
    @discardableResult
    public func save(_ profile: StoredProfile) throws(KeymapError) -> KeymapError? {
        try files.makeDirectory(directory)
        return try files.writeAtomically(profile.json(), to: path(for: profile.address))
    }

    /// Saves a session's base and draft, and the profile's settings, as a keyboard's profile.
    /// - Returns: nil, or a durability warning (see `save(_:)`).
    @discardableResult
    public func save(
        _ session: KeymapEditSession, for address: KeyboardAddress, settings: ProfileSettings = ProfileSettings()
    ) throws(KeymapError) -> KeymapError? {
        try save(StoredProfile(address: address, session: session, settings: settings))
    }
}
