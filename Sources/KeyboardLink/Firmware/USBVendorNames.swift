import KeyboardLinkSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// USB vendor names from the `usb.ids` database (Debian package hwdata installs `/usr/share/hwdata/usb.ids`).
///
/// Only the vendor lines (`046d  Logitech, Inc.` at the start of a line, before the device-class section) count;
/// device and interface lines (indented by tabs) are skipped. A missing or unreadable file makes every lookup answer
/// nil: vendor names are a nicety, never an error.
///
/// The file (about 3,000 vendors, 0.7 MB) is scanned for each vendor ID not looked up before, 64 KiB at a time, and
/// only the answers are kept: a daemon sees a handful of vendors, a table of them all would hold about 0.3 MB of heap
/// for its lifetime, and reading the whole file at once took 1.6 MB at the daemon's peak.
package final class USBVendorNames: Sendable {
    /// The default location of the database.
    package static let defaultPath = "/usr/share/hwdata/usb.ids"

    /// The database file.
    package let path: String
    /// The answers so far, including "not listed" (nil).
    private let answers = Mutex<[UInt16: String?]>([:])

    /// A lookup over the file at `path`; nothing is read until the first lookup.
    package init(path: String = USBVendorNames.defaultPath) {
        self.path = path
    }

    /// The vendor's name, or nil when the file does not list it or cannot be read.
    package func name(for vendorID: UInt16) -> String? {
        answers.withLock { answers in
            if let known = answers[vendorID] { return known }
            let name = Self.lookUp(vendorID, in: path)
            answers[vendorID] = .some(name)
            return name
        }
    }

    /// Scans the file for one vendor; nil when it cannot be read or does not list the vendor.
    static func lookUp(_ vendorID: UInt16, in path: String) -> String? {
        var found: String?
        forEachLine(ofFileAt: path) { line in
            switch vendor(in: line) {
            case .endOfVendors: return false
            case .vendor(let id, let name) where id == vendorID:
                found = name
                return false
            case .vendor, .other: return true
            }
        }
        return found
    }

    /// The longest line kept whole; longer ones (none in usb.ids) are skipped.
    static let longestLine = 4096

    /// Reads the file in 64 KiB chunks and calls `body` with each line (without its newline) while it returns
    /// true. A file that cannot be opened or read ends the scan: vendor names are a nicety.
    static func forEachLine(ofFileAt path: String, _ body: (ArraySlice<UInt8>) -> Bool) {
        let fd = InterruptedCall.retry { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // Bytes of buffer[0..<filled] not yet handed out as lines start at `lineStart`.
        var filled = 0
        var skippingLongLine = false
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                InterruptedCall.retry { read(fd, raw.baseAddress! + filled, raw.count - filled) }
            }
            let atEnd = count <= 0
            if !atEnd { filled += count }
            var lineStart = 0
            while let newline = buffer[lineStart..<filled].firstIndex(of: 0x0A) {
                let whole = !skippingLongLine && newline - lineStart <= longestLine
                if whole && !body(buffer[lineStart..<newline]) { return }
                skippingLongLine = false
                lineStart = newline + 1
            }
            if atEnd {
                if lineStart < filled && !skippingLongLine && filled - lineStart <= longestLine {
                    _ = body(buffer[lineStart..<filled])
                }
                return
            }
            // Keep the unfinished line at the front; drop one that outgrew the limit.
            if filled - lineStart > longestLine {
                skippingLongLine = true
                lineStart = filled
            }
            buffer.withUnsafeMutableBufferPointer { bytes in
                let rest = filled - lineStart
                if rest > 0 && lineStart > 0 {
                    bytes.baseAddress!.update(from: bytes.baseAddress! + lineStart, count: rest)
                }
                filled = rest
            }
        }
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
            switch vendor(in: bytes[lineStart..<lineEnd]) {
            case .endOfVendors: return
            case .vendor(let id, let name): if !body(id, name) { return }
            case .other: continue
            }
        }
    }

    /// What one line of `usb.ids` is.
    enum Line: Equatable {
        /// `046d  Logitech, Inc.`
        case vendor(UInt16, String)
        /// The device classes (`C 00  ...`), where the vendor list ends.
        case endOfVendors
        /// A device or interface line, a comment, a blank line.
        case other
    }

    /// Classifies one line (without its newline).
    static func vendor(in line: ArraySlice<UInt8>) -> Line {
        if line.starts(with: [UInt8(ascii: "C"), UInt8(ascii: " ")]) { return .endOfVendors }
        guard line.count > 5, line.prefix(4).allSatisfy(\.isHexDigitASCII) else { return .other }
        let separator = line[line.startIndex + 4]
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "\t"),
            let id = UInt16(String(decoding: line.prefix(4), as: UTF8.self), radix: 16)
        else { return .other }
        let name = String(decoding: line.dropFirst(5), as: UTF8.self).trimmingWhiteSpace()
        return name.isEmpty ? .other : .vendor(id, name)
    }
}
