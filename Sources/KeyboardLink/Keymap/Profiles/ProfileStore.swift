import Glibc
import KeyboardLinkSupport

/// Profiles on disk: one JSON file per keyboard, `<directory>/<AA_BB_CC_DD_EE_FF>.json`.
///
/// Writes are atomic (see `FileStore`). A file that does not parse is moved aside to
/// `<name>.corrupt-<unix time>` and reported as `.corrupt`, never deleted or overwritten. A file whose
/// `schemaVersion` is newer than this kblink reads is left where it is, untouched, and reported as `.newerSchema`:
/// it is the user's profile, which the newer kblink will read again.
package struct ProfileStore: Sendable {
    /// Where the profiles live (created with mode 0700 on the first save).
    package let directory: String
    let files: FileStore
    let clock: @Sendable () -> Int64

    /// A store in a directory, typically `<state dir>/profiles`.
    package init(directory: String) {
        self.init(directory: directory, files: FileStore(), clock: { Int64(time(nil)) })
    }

    init(directory: String, files: FileStore, clock: @escaping @Sendable () -> Int64) {
        self.directory = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.files = files
        self.clock = clock
    }

    /// The result of loading a profile.
    package enum LoadResult: Sendable, Equatable {
        /// The profile.
        case loaded(StoredProfile)
        /// There is no profile for this keyboard yet.
        case notFound
        /// The file did not parse; it was moved aside and kept.
        case corrupt(CorruptProfile)
        /// The file was written by a newer kblink; it was left in place, untouched.
        case newerSchema(NewerProfile)
    }

    /// A profile file written by a newer kblink, with a schema this one cannot read.
    package struct NewerProfile: Sendable, Equatable {
        /// Where the file is (still).
        package var path: String
        /// Its `schemaVersion`, greater than `ProfileDocument.currentSchemaVersion`.
        package var schemaVersion: Int
    }

    /// A profile file that did not parse.
    package struct CorruptProfile: Sendable, Equatable {
        /// Where the file was.
        package var path: String
        /// Where it was moved to.
        package var preservedAt: String
        /// Why it did not parse.
        package var reason: KeymapError
    }

    /// The path of a keyboard's profile.
    package func path(for address: KeyboardAddress) -> String {
        "\(directory)/\(address.fileStem).json"
    }

    /// Loads a keyboard's profile.
    /// - Throws: `KeymapError.io` when the file cannot be read or moved aside (a parse failure is not thrown: it
    ///   is the `.corrupt` result; a newer schema is the `.newerSchema` result).
    package func load(_ address: KeyboardAddress) throws(KeymapError) -> LoadResult {
        let path = path(for: address)
        let contents: [UInt8]?
        do throws(FileError) {
            contents = try files.read(path)
        } catch {
            guard error.errno == EFBIG else { throw KeymapError(error) }
            // Too large to be a profile kblink wrote: as unreadable as a parse failure.
            let preserved = try KeymapError.file { () throws(FileError) in
                try files.setAside(path, suffix: ".corrupt-\(clock())")
            }
            let reason = KeymapError.invalidProfile("the file is larger than \(FileStore.maximumReadSize >> 20) MiB")
            return .corrupt(CorruptProfile(path: path, preservedAt: preserved, reason: reason))
        }
        guard let bytes = contents else { return .notFound }
        if let version = Self.newerSchemaVersion(bytes) {
            return .newerSchema(NewerProfile(path: path, schemaVersion: version))
        }
        do throws(KeymapError) {
            let profile = try StoredProfile(json: bytes)
            guard profile.address == address else {
                throw .invalidProfile("the file holds the profile of \(profile.address), not \(address)")
            }
            return .loaded(profile)
        } catch {
            let preserved = try KeymapError.file { () throws(FileError) in
                try files.setAside(path, suffix: ".corrupt-\(clock())")
            }
            return .corrupt(CorruptProfile(path: path, preservedAt: preserved, reason: error))
        }
    }

    /// Only `schemaVersion`, to tell a newer kblink's file from a corrupt one before parsing the rest.
    private struct SchemaProbe: Decodable {
        var schemaVersion: Int?
    }

    /// The `schemaVersion` of a JSON object when it is newer than this kblink reads; nil otherwise (current,
    /// absent, or not JSON at all: the full parse then reports what is wrong).
    static func newerSchemaVersion(_ bytes: [UInt8]) -> Int? {
        guard let probe = try? ProfileJSON.decode(SchemaProbe.self, from: bytes),
            let version = probe.schemaVersion, version > ProfileDocument.currentSchemaVersion
        else { return nil }
        return version
    }

    /// Saves a keyboard's profile atomically.
    /// - Returns: nil, or a durability warning: the profile was saved (it is the file now) but syncing its
    ///   directory failed, so a power loss soon after might bring back the previous one.
    /// - Throws: `KeymapError.io`; the previous profile is then intact.
    @discardableResult
    package func save(_ profile: StoredProfile) throws(KeymapError) -> KeymapError? {
        let path = path(for: profile.address)
        let json = profile.json()
        return try KeymapError.file { () throws(FileError) in
            try files.makeDirectory(directory)
            return try files.writeAtomically(json, to: path).map(KeymapError.init)
        }
    }

    /// Saves a session's base and draft, and the profile's settings, as a keyboard's profile.
    /// - Returns: nil, or a durability warning (see `save(_:)`).
    @discardableResult
    package func save(
        _ session: KeymapEditSession, for address: KeyboardAddress, settings: ProfileSettings = ProfileSettings()
    ) throws(KeymapError) -> KeymapError? {
        try save(StoredProfile(address: address, session: session, settings: settings))
    }
}
