import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

/// How the CLI writes: plain text for people (colours only on a terminal and without `NO_COLOR`), or JSON.
struct Output: Sendable {
    let json: Bool
    let color: Bool
    let isTerminal: Bool
    /// Where the text goes.
    let io: CommandIO

    init(json: Bool, color: Bool, io: CommandIO) {
        self.json = json
        self.io = io
        self.isTerminal = io.outputIsTerminal
        self.color = color && isTerminal && io.environment("NO_COLOR") == nil
    }

    /// Writes a line of text. Control characters in it are shown as escapes (keyboard names come over the air and
    /// could otherwise drive the terminal); only colour and weight sequences pass.
    func line(_ text: String) {
        let safe = text.escapingTerminalControls(keepingStyles: true)
        io.writeOutput(Array((safe + "\n").utf8))
    }

    /// One JSON value on a line, rendered straight into bytes.
    func json(_ value: JSONValue) {
        var bytes = value.renderedBytes()
        bytes.append(0x0A)
        io.writeOutput(bytes)
    }

    /// Writes `value` encoded by ``JSONTextEncoder``, on one line.
    func json(encoding value: some Encodable) throws {
        var bytes = try JSONTextEncoder().encode(value)
        bytes.append(0x0A)
        io.writeOutput(bytes)
    }

    /// A JSON array on one line, encoded item by item by ``JSONTextEncoder`` into one reused buffer flushed every
    /// 64 KiB: a long list (`kblink list --json` of 1,000 keyboards is about 280 KB) needs no large buffer. The text
    /// is the same as the array's encoding.
    func jsonArray(_ items: [some Encodable]) throws {
        let flushAt = 64 * 1024
        var buffer: [UInt8] = []
        buffer.reserveCapacity(flushAt + 4 * 1024)
        try JSONTextEncoder().appendArray(items, to: &buffer, flushingAt: flushAt) { full in
            io.writeOutput(full)
            full.removeAll(keepingCapacity: true)
        }
        buffer.append(0x0A)
        io.writeOutput(buffer)
    }

    func error(_ text: String) {
        if json {
            writeError(JSONValue.object([("error", .string(text))]).rendered())
        } else {
            writeError("kblink: \(text)")
        }
    }

    /// Writes a line to standard error, control characters shown as escapes (errors quote names and arguments).
    func writeError(_ text: String) {
        io.writeError(Array((text.escapingTerminalControls + "\n").utf8))
    }

    /// Writes text as it is (escape codes, partial lines, progress redrawn in place) to standard output.
    func writeRaw(_ text: String) {
        io.writeOutput(Array(text.utf8))
    }

    func bold(_ text: String) -> String { color ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func green(_ text: String) -> String { color ? "\u{1B}[32m\(text)\u{1B}[0m" : text }
    func yellow(_ text: String) -> String { color ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { color ? "\u{1B}[2m\(text)\u{1B}[0m" : text }

    /// A table with a header; columns padded to their widest cell (by characters).
    func table(_ header: [String], _ rows: [[String]]) {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
        line(bold(render(header)))
        for row in rows { line(render(row)) }
    }
}

extension KeyboardInfo {
    var batteryText: String {
        battery.isEmpty
            ? "-"
            : battery.map { $0.part == "main" ? "\($0.level)%" : "\($0.part) \($0.level)%" }.joined(separator: ", ")
    }
}

extension String {
    /// The key with its first letter lower-cased (`FirmwareRevision` -> `firmwareRevision`, `PnPID` -> `pnPID`).
    var camelCased: String {
        guard let first = first else { return self }
        return first.lowercased() + dropFirst()
    }
}

extension String {
    /// A D-Bus dictionary key in camelCase (`guide-top` -> `guideTop`), as kblink's JSON writes every key.
    var kebabToCamel: String {
        let parts = split(separator: "-")
        guard let first = parts.first else { return self }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
