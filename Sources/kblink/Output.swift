import InsetCore
import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkClient
import KeyboardLinkCommandLine
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

    init(json: Bool, color: Bool) {
        self.json = json
        self.isTerminal = isatty(STDOUT_FILENO) == 1
        self.color = color && isTerminal && getenv("NO_COLOR") == nil
    }

    /// Writes a line of text. Control characters in it are shown as escapes (keyboard names come over the air and
    /// could otherwise drive the terminal); only colour and weight sequences pass.
    func line(_ text: String) {
        let safe = text.escapingTerminalControls(keepingStyles: true)
        FileDescriptorOutput.writeAll(Array((safe + "\n").utf8), to: STDOUT_FILENO)
    }

    /// One JSON value on a line, rendered straight into bytes.
    func json(_ value: JSONValue) {
        var bytes = value.renderedBytes()
        bytes.append(0x0A)
        FileDescriptorOutput.writeAll(bytes, to: STDOUT_FILENO)
    }

    /// A JSON array on one line, written item by item through one reused buffer flushed every 64 KiB: a long
    /// list (`kblink list --json` of 1,000 keyboards is about 280 KB) needs neither a tree of every item at once
    /// nor one large buffer. The text is the same as `json(.array(items.map(item)))`.
    func jsonArray<Item>(_ items: [Item], _ item: (Item) -> JSONValue) {
        let flushAt = 64 * 1024
        var buffer: [UInt8] = []
        buffer.reserveCapacity(flushAt + 4 * 1024)
        buffer.append(UInt8(ascii: "["))
        for (index, element) in items.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            item(element).append(to: &buffer)
            if buffer.count >= flushAt {
                FileDescriptorOutput.writeAll(buffer, to: STDOUT_FILENO)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        buffer.append(UInt8(ascii: "]"))
        buffer.append(0x0A)
        FileDescriptorOutput.writeAll(buffer, to: STDOUT_FILENO)
    }

    func error(_ text: String) {
        if json {
            Output.writeError(JSONValue.object([("error", .string(text))]).rendered())
        } else {
            Output.writeError("kblink: \(text)")
        }
    }

    /// Writes a line to standard error, control characters shown as escapes (errors quote names and arguments).
    static func writeError(_ text: String) {
        FileDescriptorOutput.writeAll(Array((text.escapingTerminalControls + "\n").utf8), to: STDERR_FILENO)
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
    /// The stable `--json` form of a keyboard (its keys are listed in `kblink list --help`).
    var json: JSONValue {
        .object([
            ("address", .string(address)),
            ("name", .string(name)),
            ("alias", .string(alias)),
            ("paired", .bool(paired)),
            ("trusted", .bool(trusted)),
            ("connected", .bool(connected)),
            (
                "battery",
                .array(battery.map { .object([("part", .string($0.part)), ("level", .integer(Int64($0.level)))]) })
            ),
            ("driver", .string(driver)),
            // camelCase like every other JSON key (the D-Bus Firmware property's keys are PascalCase).
            ("firmware", .object(firmware.sorted { $0.key < $1.key }.map { ($0.key.camelCased, .string($0.value)) })),
            ("path", .string(path.rawValue)),
        ])
    }

    var batteryText: String {
        battery.isEmpty
            ? "-"
            : battery.map { $0.part == "main" ? "\($0.level)%" : "\($0.part) \($0.level)%" }.joined(separator: ", ")
    }
}

extension ManagerStatus {
    var json: JSONValue {
        .object([
            ("version", .string(version)),
            ("bluezRunning", .bool(blueZRunning)),
            ("bluetoothAvailable", .bool(bluetoothAvailable)),
            ("discovering", .bool(discovering)),
            ("hardwareKeyboardAttached", .bool(hardwareKeyboardAttached)),
            (
                "hardwareKeyboards",
                .array(
                    hardwareKeyboards.map {
                        .object([("source", .string($0.source)), ("id", .string($0.id)), ("name", .string($0.name))])
                    })
            ),
        ])
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
