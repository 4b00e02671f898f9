import KeyboardLinkSupport

/// Reads udev's database (`/run/udev/data`) for the properties kblink honours on input devices: `KBLINK_IGNORE=1`
/// keeps a device from ever counting as a hardware keyboard.
///
/// udev keeps one file per device: `c13:<minor>` for an event node (a character device, major 13) and
/// `+input:inputN` for the input device above it; a property is a line `E:NAME=value`. A rule may set the property
/// on either, so both are read. The event node's minor comes from sysfs (`/sys/class/input/eventN/dev`); when sysfs
/// cannot say, the kernel's fixed range (64 + N for the first 32 nodes) is used.
package struct UdevDatabase: Sendable, Hashable {
    /// Where udev keeps its database.
    package static let defaultDirectory = "/run/udev/data"
    /// Where sysfs lists input devices.
    package static let defaultSysfsClassDirectory = "/sys/class/input"

    /// The database directory.
    package var directory: String
    /// The sysfs class directory of input devices.
    package var sysfsClassDirectory: String

    /// A reader of the database in `directory`.
    package init(
        directory: String = UdevDatabase.defaultDirectory, sysfsClassDirectory: String = defaultSysfsClassDirectory
    ) {
        self.directory = directory
        self.sysfsClassDirectory = sysfsClassDirectory
    }

    /// Whether udev gave the device `KBLINK_IGNORE=1`.
    package func isIgnored(_ device: InputDevice) -> Bool {
        databaseFiles(for: device).contains { name in
            guard let bytes = try? FileStore().read(directory + "/" + name) else { return false }
            return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).contains { line in
                line.trimmingTrailingSpaces() == "E:KBLINK_IGNORE=1"
            }
        }
    }

    /// `c13:67` and `+input:input3` for a device whose node is event3 and sysfs path ends in input3.
    func databaseFiles(for device: InputDevice) -> [String] {
        var names: [String] = []
        if let node = device.eventNode, let number = device.eventNumber {
            if let bytes = try? FileStore().read(sysfsClassDirectory + "/" + node + "/dev") {
                let text = String(decoding: bytes, as: UTF8.self)[...].trimmingTrailingSpaces()
                let numbers = text.split(separator: "\n").first.map(String.init) ?? ""
                if numbers.split(separator: ":").count == 2, numbers.allSatisfy({ $0 == ":" || $0.isASCIIDigit }) {
                    names.append("c" + numbers)
                }
            } else if number < 32 {
                names.append("c13:\(64 + number)")
            }
        }
        if let last = device.sysfsPath.split(separator: "/").last, last.hasPrefix("input") {
            names.append("+input:" + last)
        }
        return names
    }
}
