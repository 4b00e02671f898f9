import KeyboardLinkPresence

/// Feeds the evdev keyboards the kernel sees into the service, as `/dev/input` changes.
public struct EvdevPresenceFeed: Sendable {
    public let devicesPath: String
    public let directory: String

    public init(devicesPath: String, directory: String) {
        self.devicesPath = devicesPath
        self.directory = directory
    }

    /// Watches until the task is cancelled. When the directory cannot be watched (a container without
    /// `/dev/input`), only Bluetooth keyboards count, and the log says so.
    public func run(into service: KeyboardLinkService, logger: Logger) async {
        let monitor: EvdevMonitor
        do {
            monitor = try EvdevMonitor(
                directory: directory, devicesFile: devicesPath, log: { line in logger.warning("presence: \(line)") })
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
