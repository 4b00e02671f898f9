import FoundationEssentials
import Glibc
import KeyboardLinkTestSupport
import Synchronization
import Testing

@testable import KeyboardLinkPresence

@Suite(.timeLimit(.minutes(1))) struct EvdevMonitorTests {
    typealias Fixtures = InputDevicesFixtures

    /// A watched directory standing for /dev/input and, elsewhere, a devices file standing for /proc.
    struct Sandbox {
        let watched: TemporaryDirectory
        let proc: TemporaryDirectory
        let devicesFile: String

        init(_ parts: String...) throws {
            watched = try TemporaryDirectory()
            proc = try TemporaryDirectory()
            devicesFile = try proc.write(Fixtures.file(parts), to: "devices")
        }

        func setDevices(_ parts: String...) throws {
            try proc.write(Fixtures.file(parts), to: "devices")
        }

        func touch(_ name: String) throws {
            try watched.write("", to: name)
        }

        func delete(_ name: String) throws {
            try FileManager.default.removeItem(at: watched.url.appending(path: name))
        }

        func remove() {
            watched.remove()
            proc.remove()
        }
    }

    @Test func publishesTheInitialListThenEachChange() async throws {
        let sandbox = try Sandbox(Fixtures.laptop, Fixtures.mouse)
        defer { sandbox.remove() }
        let monitor = try EvdevMonitor(directory: sandbox.watched.path, devicesFile: sandbox.devicesFile)
        defer { monitor.cancel() }
        var updates = monitor.keyboards.makeAsyncIterator()

        let initial = await updates.next()
        #expect(initial?.map(\.name) == ["AT Translated Set 2 keyboard"])
        #expect(monitor.current.map(\.name) == ["AT Translated Set 2 keyboard"])

        // A USB keyboard is plugged in: the kernel lists it, then udev creates its node.
        try sandbox.setDevices(Fixtures.laptop, Fixtures.mouse, Fixtures.usbKeyboard)
        try sandbox.touch("event5")
        let plugged = await updates.next()
        #expect(plugged?.map(\.name) == ["AT Translated Set 2 keyboard", "Logitech USB Keyboard"])

        // A node changes without any change in the list (udev fixing permissions): nothing is published. Then the
        // keyboard is unplugged: the next value is the unplugged list, not a repeat of the previous one.
        try sandbox.touch("event5")
        try sandbox.setDevices(Fixtures.laptop, Fixtures.mouse)
        try sandbox.delete("event5")
        let unplugged = await updates.next()
        #expect(unplugged?.map(\.name) == ["AT Translated Set 2 keyboard"])
    }

    @Test func publishesOnlyWhenTheListChanged() async throws {
        // The devices file is outside the watched directory, so only these direct refreshes run.
        let sandbox = try Sandbox(Fixtures.laptop)
        defer { sandbox.remove() }
        let monitor = try EvdevMonitor(directory: sandbox.watched.path, devicesFile: sandbox.devicesFile)
        defer { monitor.cancel() }
        #expect(!monitor.refresh())
        try sandbox.setDevices(Fixtures.laptop, Fixtures.mouse)
        #expect(!monitor.refresh())
        try sandbox.setDevices(Fixtures.laptop, Fixtures.mouse, Fixtures.usbKeyboard)
        #expect(monitor.refresh())
        #expect(monitor.current.map(\.name) == ["AT Translated Set 2 keyboard", "Logitech USB Keyboard"])
        #expect(!monitor.refresh())
        monitor.cancel()
        try sandbox.setDevices(Fixtures.laptop)
        #expect(!monitor.refresh())
    }

    @Test func virtualKeyboardsAreDropped() async throws {
        let sandbox = try Sandbox(Fixtures.keydVirtualKeyboard)
        defer { sandbox.remove() }
        let monitor = try EvdevMonitor(directory: sandbox.watched.path, devicesFile: sandbox.devicesFile)
        defer { monitor.cancel() }
        var updates = monitor.keyboards.makeAsyncIterator()
        #expect(await updates.next() == [])

        try sandbox.setDevices(Fixtures.keydVirtualKeyboard, Fixtures.bluetoothLEKeyboard)
        try sandbox.touch("event21")
        #expect(await updates.next()?.map(\.name) == ["Aula F87"])
    }

    @Test func cancelEndsTheStream() async throws {
        let sandbox = try Sandbox(Fixtures.usbKeyboard)
        defer { sandbox.remove() }
        let monitor = try EvdevMonitor(directory: sandbox.watched.path, devicesFile: sandbox.devicesFile)
        var updates = monitor.keyboards.makeAsyncIterator()
        #expect(await updates.next()?.count == 1)
        monitor.cancel()
        monitor.cancel()
        #expect(await updates.next() == nil)
    }

    @Test func unreadableDevicesFileIsLoggedAndCountsNothing() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let lines = LogLines()
        let monitor = try EvdevMonitor(
            directory: sandbox.watched.path, devicesFile: sandbox.proc.path + "/missing", log: { lines.append($0) })
        defer { monitor.cancel() }
        var updates = monitor.keyboards.makeAsyncIterator()
        #expect(await updates.next() == [])
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.hasPrefix("cannot read \(sandbox.proc.path)/missing") == true)
    }

    @Test func malformedBlocksAreLoggedAndSkipped() async throws {
        let broken = "I: Bus=0003 Vendor=046d\nN: Name=\"broken\"\n"
        let sandbox = try Sandbox(broken, Fixtures.usbKeyboard)
        defer { sandbox.remove() }
        let lines = LogLines()
        let monitor = try EvdevMonitor(
            directory: sandbox.watched.path, devicesFile: sandbox.devicesFile, log: { lines.append($0) })
        defer { monitor.cancel() }
        var updates = monitor.keyboards.makeAsyncIterator()
        #expect(await updates.next()?.map(\.name) == ["Logitech USB Keyboard"])
        #expect(
            lines.all == [
                "\(sandbox.devicesFile): input devices list, line 1: I: line without Product=; that device is ignored"
            ])
    }

    /// A fake sysfs: `devices` holds each device's directory at its `S: Sysfs=` path, `class/input` links to them.
    static func sysfs(_ root: TemporaryDirectory, linking paths: [String]) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: root.path + "/class/input", withIntermediateDirectories: true)
        for path in paths {
            try files.createDirectory(atPath: root.path + path, withIntermediateDirectories: true)
            let name = String(path.split(separator: "/").last ?? "")
            try files.createSymbolicLink(
                atPath: root.path + "/class/input/" + name, withDestinationPath: "../.." + path)
        }
    }

    @Test("a block of the devices file counts only when sysfs has the device at its Sysfs path")
    func sysfsConfirmsEachKeyboard() async throws {
        let laptop = "/devices/platform/i8042/serio0/input/input3"
        let usb = "/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:046D:C31C.0001/input/input5"
        let bluetooth = "/devices/virtual/misc/uhid/0005:05D6:0F87.0004/input/input21"
        let sandbox = try Sandbox(Fixtures.laptop, Fixtures.usbKeyboard, Fixtures.bluetoothLEKeyboard)
        defer { sandbox.remove() }
        let sys = try TemporaryDirectory()
        defer { sys.remove() }
        // The laptop's keyboard and the BLE one are in sysfs; the USB keyboard's block names a device that is not.
        try Self.sysfs(sys, linking: [laptop, bluetooth])
        // class/input/input5 exists but is another device than the block's path.
        try FileManager.default.createDirectory(
            atPath: sys.path + "/devices/elsewhere/input/input5", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: sys.path + "/class/input/input5", withDestinationPath: "../../devices/elsewhere/input/input5")
        let monitor = try EvdevMonitor(
            directory: sandbox.watched.path, devicesFile: sandbox.devicesFile, sysfsRoot: sys.path)
        defer { monitor.cancel() }
        #expect(monitor.current.map(\.name) == ["AT Translated Set 2 keyboard", "Aula F87"])

        // Once sysfs has it where the block says, the USB keyboard counts.
        try FileManager.default.removeItem(atPath: sys.path + "/class/input/input5")
        try Self.sysfs(sys, linking: [usb])
        #expect(monitor.refresh())
        #expect(monitor.current.map(\.name) == ["AT Translated Set 2 keyboard", "Logitech USB Keyboard", "Aula F87"])

        // A path that climbs out of the sysfs root, or is not an input device's, never counts.
        var climbing = try #require(try Fixtures.devices(Fixtures.usbKeyboard).first)
        climbing.sysfsPath = "/devices/../devices/platform/i8042/serio0/input/input3"
        #expect(!EvdevMonitor.isInSysfs(climbing, root: sys.path))
        climbing.sysfsPath = ""
        #expect(!EvdevMonitor.isInSysfs(climbing, root: sys.path))
    }

    @Test func missingDirectoryIsAClearError() throws {
        let error = try #require(throws: EvdevMonitorError.self) {
            try EvdevMonitor(directory: "/nonexistent/kblink/input", devicesFile: "/dev/null")
        }
        #expect(error == .cannotWatch(path: "/nonexistent/kblink/input", errno: ENOENT))
        #expect(
            error.description
                == "cannot watch /nonexistent/kblink/input for input devices: No such file or directory; "
                + "check that it exists and is readable")
    }
}

/// Collects log lines from the monitor's queue.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
