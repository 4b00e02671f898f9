import Synchronization

/// USB vendor names from the `usb.ids` database (Debian package hwdata installs `/usr/share/hwdata/usb.ids`).
///
/// The file is read on the first lookup, and only its vendor lines (`046d  Logitech, Inc.` at the start of a line,
/// before the device-class section) are kept; device and interface lines (indented by tabs) are skipped. A missing
/// or unreadable file makes every lookup answer nil: vendor names are a nicety, never an error.
public final class USBVendorNames: Sendable {
    /// The default location of the database.
    public static let defaultPath = "/usr/share/hwdata/usb.ids"

    /// The database file.
    public let path: String
    private let table = Mutex<[UInt16: String]?>(nil)

    /// A lookup over the file at `path`; nothing is read until the first lookup.
    public init(path: String = USBVendorNames.defaultPath) {
        self.path = path
    }

    /// The vendor's name, or nil when the file does not list it or cannot be read.
    public func name(for vendorID: UInt16) -> String? {
        table.withLock { table in
            if table == nil { table = Self.load(path) }
            return table?[vendorID]
        }
    }

    /// Reads and parses the file; an empty table when it cannot be read.
    static func load(_ path: String) -> [UInt16: String] {
        guard let bytes = try? FileStore().read(path) else { return [:] }
        return parseVendors(bytes)
    }

    /// Parses the vendor lines of `usb.ids` text; the first entry for an ID wins.
    static func parseVendors(_ bytes: [UInt8]) -> [UInt16: String] {
        var vendors: [UInt16: String] = [:]
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
            if !name.isEmpty && vendors[id] == nil { vendors[id] = name }
        }
        return vendors
    }
}
