import Glibc
import KeyboardLinkSupport

/// Which hidraw nodes the group `kblinkd` may open (the udev rule `70-kblink-via.rules` asks through
/// `kblinkd --check-hidraw`): only a VIA raw HID interface, never a node that carries key reports.
///
/// A hidraw node gives whoever opens it every report of its interface: on a keyboard's key interface, every key
/// typed. So a node is granted only when each of its top-level collections is on QMK's raw HID usage page (0xFF60)
/// and the descriptor names no other usage page at all (no Keyboard/Keypad page 0x07, no Generic Desktop keyboard,
/// no Consumer keys): a combined descriptor that also carries keys is refused.
package enum HIDRawAccessRule {
    /// The usage page of QMK's raw HID interface, which VIA and Vial use.
    package static let rawHIDUsagePage: UInt16 = 0xFF60

    /// The largest descriptor read: the kernel's limit (`HID_MAX_DESCRIPTOR_SIZE`) is 4096 bytes.
    package static let maximumDescriptorSize = 4096

    /// Whether a node with this report descriptor may be opened by the group, and why (for udev's log).
    package static func decision(forDescriptor bytes: [UInt8]) -> (granted: Bool, reason: String) {
        let descriptor: HIDReportDescriptor
        do {
            descriptor = try HIDReportDescriptor(bytes: bytes)
        } catch {
            return (false, "\(error)")
        }
        guard !descriptor.applicationCollections.isEmpty else {
            return (false, "the descriptor has no application collection")
        }
        let others = descriptor.usagePages.subtracting([rawHIDUsagePage]).sorted()
        guard others.isEmpty else {
            let names = others.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: ", ")
            return (false, "the descriptor also names usage page \(names): it may carry key or other input reports")
        }
        guard descriptor.applicationCollections.allSatisfy({ $0?.page == rawHIDUsagePage }) else {
            return (false, "a top-level collection is not on usage page 0xFF60")
        }
        return (true, "raw HID only (usage page 0xFF60)")
    }

    /// Reads a report descriptor file (`/sys/class/hidraw/hidrawN/device/report_descriptor`) and decides.
    package static func decision(forDescriptorAt path: String) -> (granted: Bool, reason: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return (false, "cannot open \(path.errorExcerpt()): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: maximumDescriptorSize + 1)
        while bytes.count <= maximumDescriptorSize {
            let count = chunk.withUnsafeMutableBytes { raw in
                InterruptedCall.retry { read(descriptor, raw.baseAddress, raw.count) }
            }
            guard count >= 0 else {
                return (false, "cannot read \(path.errorExcerpt()): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        guard bytes.count <= maximumDescriptorSize else {
            return (false, "the descriptor is larger than \(maximumDescriptorSize) bytes")
        }
        return decision(forDescriptor: bytes)
    }
}
