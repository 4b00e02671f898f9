import FoundationEssentials
import Glibc
import KeyboardLinkTestSupport
import Synchronization
import Testing

@testable import InsetCore
@testable import KBlinkAPI
@testable import KeyboardLinkBlueZ
@testable import KeyboardLinkClient
@testable import KeyboardLinkCommandLine
@testable import KeyboardLinkDBus
@testable import KeyboardLinkDrivers
@testable import KeyboardLinkFirmware
@testable import KeyboardLinkKeymap
@testable import KeyboardLinkPairing
@testable import KeyboardLinkPresence
@testable import KeyboardLinkService
@testable import KeyboardLinkSimulator
@testable import KeyboardLinkSupport

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
