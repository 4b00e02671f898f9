import Dispatch
import Glibc
import KeyboardLinkSupport
import Synchronization

/// Watches the evdev keyboards of the machine: re-reads `/proc/bus/input/devices` whenever a node appears,
/// disappears or changes under `/dev/input`, and publishes the keyboard list when it changed.
///
/// Change detection is inotify (`IN_CREATE`, `IN_DELETE`, `IN_ATTRIB` on the directory) read through a
/// `DispatchSourceRead`: nothing runs while nothing changes. The kernel lists a device before udev creates its node
/// and removes it before udev deletes the node, so the file is current when the event arrives. Both paths are
/// injectable so that tests drive the monitor with a temporary directory and a devices file of their own.
///
/// Given a ``UdevDatabase``, each device is marked ``InputDevice/ignoredByUdev`` from it, and the database directory
/// is watched too (udev writes a device's entry after it made the node, so a rule's property can arrive later).
///
/// Given a sysfs root, a device counts only when sysfs confirms it (``isInSysfs(_:root:)``): the devices file is a
/// path in the configuration, and a block it lists is believed only for a device the kernel has.
///
/// Keep the monitor alive while you read ``keyboards``: releasing it (or calling ``cancel()``) ends the stream.
package final class EvdevMonitor: Sendable {
    /// The directory the kernel's input nodes live in.
    package static let defaultDirectory = "/dev/input"
    /// Where sysfs is mounted.
    package static let defaultSysfsRoot = "/sys"

    /// The watched directory.
    package let directory: String
    /// The devices list re-read on each change.
    package let devicesFile: String
    /// The keyboards (``InputDevice/isKeyboard``) and every input node of a Bluetooth device
    /// (``InputDevice/isBluetoothInput``), not ``InputDevice/isVirtual`` ones unless the monitor was told to
    /// include them; in file order: the current list first, then each new list when it differs from the
    /// previous one. Only the newest list is buffered.
    package let keyboards: AsyncStream<[InputDevice]>

    private let continuation: AsyncStream<[InputDevice]>.Continuation
    private let log: (@Sendable (String) -> Void)?
    private let includeVirtual: Bool
    private let udev: UdevDatabase?
    private let sysfsRoot: String?
    private let state: Mutex<State>

    private struct State {
        var source: ReadSource?
        var last: [InputDevice]
    }

    /// A dispatch read source, shared between the caller's thread (``cancel()``) and the source's queue.
    ///
    /// `@unchecked Sendable` is safe: the only stored property is immutable, and libdispatch objects are
    /// thread-safe (`dispatch_source_cancel`, `dispatch_activate` and handler setting may be called from any thread;
    /// the handlers themselves run on the source's serial queue).
    private final class ReadSource: @unchecked Sendable {
        let source: any DispatchSourceRead
        init(_ source: any DispatchSourceRead) { self.source = source }
    }

    /// Starts watching.
    /// - Parameters:
    ///   - directory: the directory to watch (`/dev/input`).
    ///   - devicesFile: the devices list (`/proc/bus/input/devices`).
    ///   - queue: where change handling runs; a private serial queue by default.
    ///   - log: receives a line for each problem (an unreadable devices file, a malformed block); nothing by default.
    ///   - includeVirtual: whether virtual keyboards (uinput remappers) are listed too; false by default.
    ///   - udev: the udev database to mark devices `KBLINK_IGNORE=1` from, and to watch; none by default.
    ///   - sysfsRoot: where sysfs is (`/sys`): a device counts only when ``isInSysfs(_:root:)``; none by default (every
    ///     block of the devices file counts).
    /// - Throws: ``EvdevMonitorError`` when inotify is unavailable or the directory cannot be watched.
    package init(
        directory: String = EvdevMonitor.defaultDirectory, devicesFile: String = InputDevicesFile.defaultPath,
        queue: DispatchQueue? = nil, log: (@Sendable (String) -> Void)? = nil, includeVirtual: Bool = false,
        udev: UdevDatabase? = nil, sysfsRoot: String? = nil
    ) throws(EvdevMonitorError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .inotifyUnavailable(errno: errno) }
        guard inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB)) >= 0 else {
            let error = errno
            close(fd)
            throw .cannotWatch(path: directory, errno: error)
        }
        // udev renames each entry into place; a missing database (a container) only means no device is ignored.
        if let udev {
            _ = inotify_add_watch(fd, udev.directory, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE))
        }
        self.includeVirtual = includeVirtual
        self.udev = udev
        self.sysfsRoot = sysfsRoot
        self.directory = directory
        self.devicesFile = devicesFile
        self.log = log
        (keyboards, continuation) = AsyncStream.makeStream(of: [InputDevice].self, bufferingPolicy: .bufferingNewest(1))

        // The watch exists before this first read, so a change that races with it still produces an event.
        let initial = Self.readKeyboards(
            devicesFile, log: log, includeVirtual: includeVirtual, udev: udev, sysfsRoot: sysfsRoot)
        state = Mutex(State(source: nil, last: initial))
        continuation.yield(initial)

        let source = DispatchSource.makeReadSource(
            fileDescriptor: fd, queue: queue ?? DispatchQueue(label: "kblink.evdev-monitor"))
        source.setEventHandler { [weak self] in
            Self.drain(fd)
            self?.refresh()
        }
        source.setCancelHandler { close(fd) }
        let shared = ReadSource(source)
        state.withLock { $0.source = shared }
        continuation.onTermination = { [weak self] _ in self?.cancel() }
        shared.source.activate()
    }

    deinit {
        cancel()
    }

    /// The keyboards as of the last read.
    package var current: [InputDevice] { state.withLock { $0.last } }

    /// Stops watching and ends ``keyboards``. Calling it again does nothing.
    package func cancel() {
        let shared = state.withLock { state -> ReadSource? in
            defer { state.source = nil }
            return state.source
        }
        guard let shared else { return }
        shared.source.cancel()
        continuation.finish()
    }

    /// Re-reads the devices file and publishes the keyboards if they changed (the monitor calls it on each inotify
    /// wake-up; the daemon may call it too, after a resume from suspend for example).
    /// - Returns: whether a new list was published.
    @discardableResult
    package func refresh() -> Bool {
        let keyboards = Self.readKeyboards(
            devicesFile, log: log, includeVirtual: includeVirtual, udev: udev, sysfsRoot: sysfsRoot)
        return state.withLock { state in
            guard state.source != nil, state.last != keyboards else { return false }
            state.last = keyboards
            continuation.yield(keyboards)
            return true
        }
    }

    /// Reads every pending inotify event; their content does not matter, only that something changed.
    private static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                InterruptedCall.retry { read(fd, raw.baseAddress, raw.count) }
            }
            if count > 0 { continue }
            return  // EAGAIN: drained (or an error, which the next event will meet again).
        }
    }

    /// The keyboards of the devices file (virtual ones only when `includeVirtual`), marked from the udev database;
    /// none when the file cannot be read.
    static func readKeyboards(
        _ path: String, log: (@Sendable (String) -> Void)?, includeVirtual: Bool = false, udev: UdevDatabase? = nil,
        sysfsRoot: String? = nil
    ) -> [InputDevice] {
        let bytes: [UInt8]
        do {
            guard let read = try FileStore().read(path) else {
                throw FileError(operation: "opening", path: path, errno: ENOENT)
            }
            bytes = read
        } catch {
            log?("cannot read \(path): \(error); no evdev keyboard counts until it can be read")
            return []
        }
        let parsed = InputDevicesFile.parseSkippingMalformed(String(decoding: bytes, as: UTF8.self))
        for error in parsed.errors { log?("\(path): \(error.description); that device is ignored") }
        return parsed.devices.filter { device in
            // Every input node of a Bluetooth device too, keyboard or not: whether a keyboard BlueZ connected made
            // its input device at all (health) is asked of nodes that fail the keyboard rule as well (a numeric
            // keypad, a presenter); presence counts only keyboards.
            (device.isKeyboard || device.isBluetoothInput) && (includeVirtual || !device.isVirtual)
                && (sysfsRoot.map { isInSysfs(device, root: $0) } ?? true)
        }.map { device in
            var marked = device
            marked.ignoredByUdev = udev?.isIgnored(device) ?? false
            return marked
        }
    }

    /// Whether sysfs under `root` confirms a block of the devices file: its `S: Sysfs=` path (`/devices/…/inputN`)
    /// exists under `root`, and `root/class/input/inputN` is that same directory (sysfs links every input device
    /// there).
    package static func isInSysfs(_ device: InputDevice, root: String) -> Bool {
        let path = device.sysfsPath
        guard path.hasPrefix("/devices/"), !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }),
            let name = path.split(separator: "/").last, name.hasPrefix("input")
        else { return false }
        guard let device = resolved(root + path), let listed = resolved(root + "/class/input/" + name) else {
            return false
        }
        return device == listed
    }

    /// The canonical path of an existing file, nil when there is none.
    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
