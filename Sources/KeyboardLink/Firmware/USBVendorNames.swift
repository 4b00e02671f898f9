import Synchronization

/// USB vendor names from the `usb.ids` database (Debian package hwdata installs `/usr/share/hwdata/usb.ids`).
///
/// Only the vendor lines (`046d  Logitech, Inc.` at the start of a line, before the device-class section) count;
/// device and interface lines (indented by tabs) are skipped. A missing or unreadable file makes every lookup answer
/// nil: vendor names are a nicety, never an error.
///
/// The file (about 3,000 vendors) is scanned for each vendor ID not looked up before and only the answers are kept:
/// a daemon sees a handful of vendors, and a table of them all would hold about 0.3 MB of heap for its lifetime.
public final class USBVendorNames: Sendable {
    /// The default location of the database.
    public static let defaultPath = "/usr/share/hwdata/usb.ids"

    /// The database file.
    public let path: String
    /// The answers so far, including "not listed" (nil).
    private let answers = Mutex<[UInt16: String?]>([:])

    /// A lookup over the file at `path`; nothing is read until the first lookup.
    public init(path: String = USBVendorNames.defaultPath) {
        self.path = path
    }

    /// The vendor's name, or nil when the file does not list it or cannot be read.
    public func name(for vendorID: UInt16) -> String? {
        answers.withLock { answers in
            if let known = answers[vendorID] { return known }
            let name = Self.lookUp(vendorID, in: path)
            answers[vendorID] = .some(name)
            return name
        }
    }

    /// Scans the file for one vendor; nil when it cannot be read or does not list the vendor.
    static func lookUp(_ vendorID: UInt16, in path: String) -> String? {
        guard let bytes = try? FileStore().read(path) else { return nil }
        var found: String?
        forEachVendor(bytes) { id, name in
            guard id == vendorID else { return true }
            found = name
            return false
        }
        return found
    }

    /// Parses the vendor lines of `usb.ids` text; the first entry for an ID wins.
    static func parseVendors(_ bytes: [UInt8]) -> [UInt16: String] {
        var vendors: [UInt16: String] = [:]
        forEachVendor(bytes) { id, name in
            if vendors[id] == nil { vendors[id] = name }
            return true
        }
        return vendors
    }

    /// Calls `body` with each vendor line's ID and name, in file order, while it returns true.
    private static func forEachVendor(_ bytes: [UInt8], _ body: (UInt16, String) -> Bool) {
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            let line = bytes[lineStart..<lineEnd]
            // The vendor list ends where the device classes ("C 00  ...") begin.
            if line.starts(with: [UInt8(ascii: "C"), UInt8(ascii: " ")]) { break }
            guard line.count > 5, line.prefix(4).allSatisfy(\.isHexDigitASCII) else { continue }
            let separator = line[line.startIndex + 4]
            guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "\t"),
                let id = UInt16(String(decoding: line.prefix(4), as: UTF8.self), radix: 16)
            else { continue }
            let name = String(decoding: line.dropFirst(5), as: UTF8.self).trimmingWhiteSpace()
            if !name.isEmpty && !body(id, name) { return }
        }
    }
}
