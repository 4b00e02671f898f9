/// Parses the text of `/proc/bus/input/devices`: one block per device, blocks separated by blank lines, each line
/// `X: ...` with X one of `I` (ids), `N` (name), `P` (phys), `S` (sysfs), `U` (uniq), `H` (handlers), `B` (bitmaps).
///
/// Lines of other kinds are ignored (newer kernels may add some). A block without an `I:` line, a line without the
/// `X: ` shape, an `I:` field that is not 4 hex digits or a bitmap that is not hex is malformed.
package enum InputDevicesFile {
    /// Where the kernel publishes the list.
    package static let defaultPath = "/proc/bus/input/devices"

    /// Parses the whole text, refusing it at the first malformed block.
    /// - Throws: ``InputDevicesParseError`` naming the line and what is wrong.
    package static func parse(_ text: String) throws(InputDevicesParseError) -> [InputDevice] {
        var devices: [InputDevice] = []
        for block in blocks(text) {
            devices.append(try parseBlock(block))
        }
        return devices
    }

    /// Parses the whole text, skipping malformed blocks: one odd device must not hide the others.
    /// - Returns: the devices of the well-formed blocks, and one error per skipped block.
    package static func parseSkippingMalformed(_ text: String) -> (
        devices: [InputDevice], errors: [InputDevicesParseError]
    ) {
        var devices: [InputDevice] = []
        var errors: [InputDevicesParseError] = []
        for block in blocks(text) {
            do {
                devices.append(try parseBlock(block))
            } catch {
                errors.append(error)
            }
        }
        return (devices, errors)
    }

    /// A block: its lines with their 1-based line numbers.
    typealias Block = [(number: Int, text: Substring)]

    static func blocks(_ text: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block = []
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                if !current.isEmpty { blocks.append(current) }
                current = []
            } else {
                current.append((index + 1, line))
            }
        }
        if !current.isEmpty { blocks.append(current) }
        return blocks
    }

    static func parseBlock(_ block: Block) throws(InputDevicesParseError) -> InputDevice {
        var device = InputDevice(bus: InputBus(rawValue: 0))
        var sawIDs = false
        for (number, line) in block {
            let utf8 = Array(line.utf8.prefix(3))
            guard utf8.count == 3, utf8[1] == UInt8(ascii: ":"), utf8[2] == UInt8(ascii: " ") else {
                throw InputDevicesParseError(line: number, reason: "expected \"X: ...\", got \"\(line.prefix(40))\"")
            }
            let body = line.dropFirst(3)
            switch line.first {
            case "I":
                try parseIDs(body, line: number, into: &device)
                sawIDs = true
            case "N": device.name = unquoted(value(body, key: "Name"))
            case "P": device.phys = String(value(body, key: "Phys"))
            case "S": device.sysfsPath = String(value(body, key: "Sysfs"))
            case "U": device.uniq = String(value(body, key: "Uniq"))
            case "H": device.handlers = value(body, key: "Handlers").split(separator: " ").map(String.init)
            case "B":
                guard let equals = body.firstIndex(of: "="), equals != body.startIndex else {
                    throw InputDevicesParseError(line: number, reason: "a B: line is NAME=bitmap")
                }
                do {
                    let bitmap = try CapabilityBitmap(parsing: body[body.index(after: equals)...])
                    device.bitmaps[String(body[..<equals])] = bitmap
                } catch {
                    throw InputDevicesParseError(line: number, reason: "B: \(body[..<equals]): \(error.description)")
                }
            default:
                continue
            }
        }
        guard sawIDs else {
            throw InputDevicesParseError(line: block.first?.number ?? 0, reason: "device block without an I: line")
        }
        return device
    }

    /// `I: Bus=0011 Vendor=0001 Product=0001 Version=ab83`.
    static func parseIDs(_ body: Substring, line: Int, into device: inout InputDevice) throws(InputDevicesParseError) {
        var fields: [Substring: UInt16] = [:]
        for pair in body.split(separator: " ") {
            guard let equals = pair.firstIndex(of: "=") else {
                throw InputDevicesParseError(line: line, reason: "I: field \"\(pair)\" is not KEY=hex")
            }
            let digits = pair[pair.index(after: equals)...]
            guard (1...4).contains(digits.utf8.count), digits.utf8.allSatisfy(\.isHexDigitASCII),
                let value = UInt16(digits, radix: 16)
            else {
                throw InputDevicesParseError(line: line, reason: "I: field \"\(pair)\" is not KEY=4 hex digits")
            }
            fields[pair[..<equals]] = value
        }
        for key in ["Bus", "Vendor", "Product", "Version"] where fields[Substring(key)] == nil {
            throw InputDevicesParseError(line: line, reason: "I: line without \(key)=")
        }
        device.bus = InputBus(rawValue: fields["Bus"] ?? 0)
        device.vendor = fields["Vendor"] ?? 0
        device.product = fields["Product"] ?? 0
        device.version = fields["Version"] ?? 0
    }

    /// The text after `key=`, or the whole body when it does not start with it.
    static func value(_ body: Substring, key: String) -> Substring {
        let prefix = key + "="
        guard body.hasPrefix(prefix) else { return body.trimmingTrailingSpaces() }
        return body.dropFirst(prefix.count).trimmingTrailingSpaces()
    }

    /// `"AT Translated Set 2 keyboard"` -> `AT Translated Set 2 keyboard`; the kernel does not escape quotes in
    /// names, so only the first and the last quote are removed.
    static func unquoted(_ text: Substring) -> String {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return String(text) }
        return String(text.dropFirst().dropLast())
    }
}

extension Substring {
    func trimmingTrailingSpaces() -> Substring {
        var result = self
        while let last = result.last, last == " " || last == "\t" || last == "\r" { result = result.dropLast() }
        return result
    }
}
