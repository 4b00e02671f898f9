import KeyboardLinkBlueZ
import KeyboardLinkFirmware
import KeyboardLinkKeymap
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The per-keyboard firmware cache in the state directory: `<state>/firmware/<ADDRESS>.json`, one
/// ``FirmwareInfo`` each (``FirmwareInfo/cacheData()``).
///
/// Files are written atomically (a temporary file in the same directory, `fsync`, `rename`, `fsync` of the
/// directory), so a crash or power cut leaves either the old file or the new one. A file that cannot be read is
/// moved aside (`<ADDRESS>.json.corrupt`) and reported, never fatal: the next refresh rebuilds it.
package struct FirmwareCache: Sendable {
    /// `<state>/firmware`.
    package let directory: String

    /// The cache inside `stateDirectory`.
    package init(stateDirectory: String) {
        directory = (stateDirectory.hasSuffix("/") ? stateDirectory : stateDirectory + "/") + "firmware"
    }

    /// The file of one keyboard.
    package func path(for address: BluetoothAddress) -> String {
        directory + "/" + address.description + ".json"
    }

    /// Where an unreadable file of one keyboard is moved.
    package func quarantinePath(for address: BluetoothAddress) -> String {
        path(for: address) + ".corrupt"
    }

    /// Reads one keyboard's cached information.
    /// - Returns: nil when there is no cache file.
    /// - Throws: ``FirmwareCacheError`` when the file exists but is not a cache this kblink reads.
    package func load(_ address: BluetoothAddress) throws(FirmwareCacheError) -> FirmwareInfo? {
        let file = path(for: address)
        let data: [UInt8]
        do {
            guard let bytes = try FileStore().read(file) else { return nil }
            data = bytes
        } catch {
            throw FirmwareCacheError(reason: "cannot read \(file) (\(error))")
        }
        return try FirmwareInfo(cacheData: data)
    }

    /// Reads every keyboard's cached information. Unreadable files are moved aside and reported through
    /// `problem`; files whose name is not `<ADDRESS>.json` are left alone.
    package func loadAll(problem: (String) -> Void = { _ in }) -> [BluetoothAddress: FirmwareInfo] {
        guard let names = try? FileStore().list(directory) else { return [:] }
        var result: [BluetoothAddress: FirmwareInfo] = [:]
        for name in names.sorted() where name.hasSuffix(".json") {
            guard let address = BluetoothAddress(validating: String(name.dropLast(".json".count))) else { continue }
            do {
                if let info = try load(address) { result[address] = info }
            } catch {
                let aside = quarantinePath(for: address)
                if rename(path(for: address), aside) == 0 {
                    problem("\(error); moved it to \(aside)")
                } else {
                    problem("\(error); cannot move it aside: \(String(cString: strerror(errno)))")
                }
            }
        }
        return result
    }

    /// Writes one keyboard's information atomically, creating the directory when needed.
    /// - Throws: ``FirmwareCacheWriteError`` naming the step that failed; the previous file is then untouched.
    package func store(_ info: FirmwareInfo, for address: BluetoothAddress) throws(FirmwareCacheWriteError) {
        let data: [UInt8]
        do {
            data = try info.cacheData()
        } catch {
            throw FirmwareCacheWriteError(path: path(for: address), step: "encode", reason: "\(error)")
        }
        try Self.makeDirectory(directory)
        try Self.writeAtomically(data, to: path(for: address))
    }

    /// Removes one keyboard's file (when the keyboard is forgotten); a missing file is fine.
    package func remove(_ address: BluetoothAddress) {
        _ = unlink(path(for: address))
    }
}
