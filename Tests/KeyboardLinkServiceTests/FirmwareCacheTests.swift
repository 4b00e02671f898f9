import FoundationEssentials
import Glibc
import KeyboardLinkBlueZ
import KeyboardLinkFirmware
import KeyboardLinkSupport
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkService

@Suite struct FirmwareCacheTests {
    static let address = BluetoothAddress(validating: "EC:0C:4E:00:00:42")!
    static let info = FirmwareInfo(
        manufacturer: "ZMK Project", model: "Corne", serial: "5E1F0C2A9B3D",
        identity: DeviceIdentity(source: .usb, vendorID: 0x1D50, productID: 0x615E, productVersion: 0x0300),
        batteries: [
            BatteryReading(part: "left", level: try! BatteryLevel(percentage: 90)),
            BatteryReading(part: "right", level: try! BatteryLevel(percentage: 75)),
        ],
        notes: ["a note"], readAt: WallClockTime(secondsSince1970: 1_760_000_000))

    @Test func storeThenLoad() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = FirmwareCache(stateDirectory: directory.path + "/state")
        #expect(cache.path(for: Self.address) == directory.path + "/state/firmware/EC:0C:4E:00:00:42.json")
        #expect(try cache.load(Self.address) == nil)
        try cache.store(Self.info, for: Self.address)
        #expect(try cache.load(Self.address) == Self.info)
        // Only the file itself is left: the temporary file was renamed over it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory) == ["EC:0C:4E:00:00:42.json"])
    }

    @Test func storeReplacesThePreviousFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = FirmwareCache(stateDirectory: directory.path)
        try cache.store(Self.info, for: Self.address)
        var newer = Self.info
        newer.firmwareRevision = "0.3.1"
        try cache.store(newer, for: Self.address)
        #expect(try cache.load(Self.address)?.firmwareRevision == "0.3.1")
    }

    @Test func loadAllMovesUnreadableFilesAside() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = FirmwareCache(stateDirectory: directory.path)
        let other = BluetoothAddress(validating: "F8:70:00:00:00:87")!
        try cache.store(Self.info, for: Self.address)
        try FileManager.default.createDirectory(atPath: cache.directory, withIntermediateDirectories: true)
        try Data("{\"version\": 1, \"firmware\": 3}".utf8).write(to: URL(filePath: cache.path(for: other)))
        try Data("not an address".utf8).write(to: URL(filePath: cache.directory + "/notes.json"))
        var problems: [String] = []
        let loaded = cache.loadAll { problems.append($0) }
        #expect(loaded == [Self.address: Self.info])
        #expect(problems.count == 1)
        #expect(problems.first?.contains("firmware cache unreadable: malformed cache") == true)
        #expect(problems.first?.hasSuffix("moved it to \(cache.quarantinePath(for: other))") == true)
        #expect(FileManager.default.fileExists(atPath: cache.quarantinePath(for: other)))
        #expect(!FileManager.default.fileExists(atPath: cache.path(for: other)))
        #expect(FileManager.default.fileExists(atPath: cache.directory + "/notes.json"))
    }

    @Test func loadAllWithoutDirectoryIsEmpty() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(FirmwareCache(stateDirectory: directory.path).loadAll().isEmpty)
    }

    @Test func storeReportsTheStepThatFailed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A regular file where the state directory should be: creating the firmware directory fails.
        let blocker = try directory.write("", to: "state")
        let cache = FirmwareCache(stateDirectory: blocker)
        #expect {
            try cache.store(Self.info, for: Self.address)
        } throws: { error in
            let failure = error as? FirmwareCacheWriteError
            return failure?.step == "create the directory" && failure?.path == blocker + "/firmware"
                && failure?.description.contains("Not a directory") == true
        }
    }

    @Test func removeDeletesTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = FirmwareCache(stateDirectory: directory.path)
        try cache.store(Self.info, for: Self.address)
        cache.remove(Self.address)
        #expect(try cache.load(Self.address) == nil)
    }
}

@Suite struct FirmwareCacheModeTests {
    // The umask is the process's (tests run in parallel), so it is left as it is: under the usual 022 a file created
    // 0644 would stay 0644.
    @Test("the cache file is created readable and writable by its owner only (0600)")
    func mode() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = FirmwareCache(stateDirectory: directory.path)
        try cache.store(FirmwareCacheTests.info, for: FirmwareCacheTests.address)
        var status = stat()
        #expect(stat(cache.path(for: FirmwareCacheTests.address), &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }
}
