import KeyboardLinkPresence

/// Feeds the evdev keyboards the kernel sees into the service, as `/dev/input` changes.
package struct EvdevPresenceFeed: Sendable {
    package let devicesPath: String
    package let directory: String
    /// Where udev's `KBLINK_IGNORE=1` is read; none: no device is ignored.
    package let udev: UdevDatabase?
    /// Where sysfs is: a block of the devices file counts only for a device sysfs has (`EvdevMonitor.isInSysfs`).
    package let sysfsRoot: String

    package init(
        devicesPath: String, directory: String, udev: UdevDatabase? = nil,
        sysfsRoot: String = EvdevMonitor.defaultSysfsRoot
    ) {
        self.devicesPath = devicesPath
        self.directory = directory
        self.udev = udev
        self.sysfsRoot = sysfsRoot
    }

    /// Watches until the task is cancelled. When the directory cannot be watched (a container without
    /// `/dev/input`), only Bluetooth keyboards count, and the log says so.
    package func run(into service: KeyboardLinkService, logger: Logger) async {
        let monitor: EvdevMonitor
        do {
            monitor = try EvdevMonitor(
                directory: directory, devicesFile: devicesPath, log: { line in logger.warning("presence: \(line)") },
                includeVirtual: true, udev: udev, sysfsRoot: sysfsRoot)
        } catch {
            logger.warning("evdev keyboards are not watched (\(error)); only Bluetooth keyboards count")
            return
        }
        await withTaskCancellationHandler {
            for await devices in monitor.keyboards {
                await service.updateEvdevDevices(devices)
            }
        } onCancel: {
            monitor.cancel()
        }
    }
}
