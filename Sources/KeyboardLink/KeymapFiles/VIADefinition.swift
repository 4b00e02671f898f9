import KeyboardLinkKeymap

/// A VIA keyboard definition (the JSON files of the-via/keyboards, v2 or v3) read into the physical layout kblink
/// uses for keyboards with its vendor and product IDs.
///
/// What is read: `name`, `vendorId` and `productId` (hex strings, `"0x6F75"`), `matrix` `{rows, cols}`, and
/// `layouts`: `keymap` (keyboard-layout-editor rows whose keys carry `row,col` as their first legend and, for keys
/// of a layout option, `group,option` as their fourth; legends are placed by KLE's alignment `a`, as VIA places
/// them) and `labels` (one per option group: a name for an on/off option, or `[name, choice, choice...]`).
/// Each group's chosen option (the first unless `options` says otherwise) is moved where VIA draws it: onto
/// the place of the group's first option. Decals (`d`) and encoders without a switch are not keys. A v2 file is one
/// with `lighting`; everything else (`menus`, `keycodes`, `customKeycodes`) is VIA's and is not needed here.
///
/// Keys are named by their place: when at least three quarters of the keys (and 30 or more) sit where the keys of
/// one built-in layout sit, those take its names (`ESC`, `Q`, `SPACE`); any other key is named by its matrix position (`R2C13`).
///
/// Every refusal names the line and column of what it refuses, and why. The limits keep a hostile file small:
/// at most ``maximumSize`` bytes, 64 levels of nesting, a matrix of at most ``maximumMatrixSide`` rows and columns,
/// at most ``maximumKLEKeys`` keys in the file and `PhysicalLayout.maximumKeys` in the layout chosen.
package struct VIADefinition: Sendable, Equatable {
    /// The definition's format.
    package enum Version: String, Sendable {
        /// VIA's v2 definitions (with `lighting`).
        case v2
        /// VIA's v3 definitions.
        case v3
    }

    /// One group of layout options (`Enter`: `ANSI` or `ISO`; `Split Backspace`: off or on).
    package struct OptionGroup: Sendable, Equatable {
        /// The group's label.
        package var name: String
        /// The choices' names (`off` and `on` for a group labelled by a name alone).
        package var choices: [String]
        /// The choice the layout holds, from 0.
        package var chosen: Int
    }

    /// The keyboard's name.
    package var name: String
    /// The USB vendor ID VIA matches the keyboard by.
    package var vendorID: UInt16
    /// The USB product ID.
    package var productID: UInt16
    /// The switch matrix: rows.
    package var matrixRows: Int
    /// The switch matrix: columns.
    package var matrixColumns: Int
    /// v2 or v3.
    package var version: Version
    /// The layout option groups, in group order.
    package var optionGroups: [OptionGroup]
    /// The layout: the keys of the chosen options.
    package var layout: PhysicalLayout

    /// The largest definition read (1 MiB; VIA's own are tens of KiB).
    package static let maximumSize = 1 << 20
    /// The most rows, and the most columns, a matrix may have.
    package static let maximumMatrixSide = 64
    /// The most keys the KLE rows may hold, every option's included.
    package static let maximumKLEKeys = 2048

    /// Reads a definition.
    /// - Parameters:
    ///   - bytes: the file.
    ///   - id: the layout's id; nil for one made from the name (`sweet16 v1` is `sweet16-v1`).
    ///   - options: the chosen option of each group, in group order (missing groups take their first option).
    /// - Throws: ``KeymapFileError`` at the place refused, with the reason.
    package init(json bytes: [UInt8], id: LayoutID? = nil, options: [Int] = []) throws(KeymapFileError) {
        guard bytes.count <= Self.maximumSize else {
            throw KeymapFileError(
                line: 1, column: 1,
                "the file is \(bytes.count) bytes; a VIA definition is at most \(Self.maximumSize >> 20) MiB")
        }
        let root = try PositionedJSON.parse(bytes)
        let reader = Reader(bytes: bytes)
        guard case .object = root else { throw reader.fail(root, "a VIA definition is a JSON object") }
        name = try reader.string(root, "name", maximumBytes: 128)
        vendorID = try reader.hexID(root, "vendorId")
        productID = try reader.hexID(root, "productId")
        let matrix = try reader.member(root, "matrix")
        guard case .object = matrix else { throw reader.fail(matrix, "'matrix' is {\"rows\": R, \"cols\": C}") }
        matrixRows = try reader.integer(matrix, "rows", in: 1...Self.maximumMatrixSide)
        matrixColumns = try reader.integer(matrix, "cols", in: 1...Self.maximumMatrixSide)
        version = root["lighting"] != nil ? .v2 : .v3
        let layouts = try reader.member(root, "layouts")
        guard case .object = layouts else { throw reader.fail(layouts, "'layouts' is an object with 'keymap'") }
        let labels = try reader.optionLabels(layouts["labels"])
        let keymap = try reader.member(layouts, "keymap")
        let placed = try reader.keys(keymap, rows: matrixRows, columns: matrixColumns)
        let chosen = try Self.choose(placed, labels: labels, options: options, reader: reader, keymap: keymap)
        optionGroups = chosen.groups
        let layoutID: LayoutID
        do {
            layoutID = try id ?? LayoutID(Self.slug(name))
        } catch {
            throw reader.fail(root["name"] ?? root, "the name makes no layout id (\(error)); give one with --id")
        }
        layout = try Self.layout(chosen.keys, id: layoutID, name: name, reader: reader)
    }

    /// A layout id made from a name: lower case, runs of other characters as one `-`, at most 64.
    static func slug(_ name: String) -> String {
        var slug = ""
        for scalar in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return String(slug.prefix(64))
    }

    // MARK: Options

    /// A key of the KLE rows, placed.
    struct PlacedKey {
        var frame: KeyFrame
        var matrix: MatrixPosition
        /// The option group (nil for a key of every layout) and the option.
        var group: Int?
        var option: Int
        var source: PositionedJSON
    }

    private static func choose(
        _ placed: [PlacedKey], labels: [(name: String, choices: [String])], options: [Int], reader: Reader,
        keymap: PositionedJSON
    ) throws(KeymapFileError) -> (keys: [PlacedKey], groups: [OptionGroup]) {
        let groupNumbers = Set(placed.compactMap(\.group))
        let groupCount = max(groupNumbers.max().map { $0 + 1 } ?? 0, labels.count)
        guard options.count <= groupCount else {
            throw reader.fail(
                keymap, "\(options.count) options were chosen, but the layout has \(groupCount) option group(s)")
        }
        var keys = placed.filter { $0.group == nil }
        var groups: [OptionGroup] = []
        for group in 0..<groupCount {
            let members = placed.filter { $0.group == group }
            let available = Set(members.map(\.option))
            let label = group < labels.count ? labels[group] : (name: "option group \(group)", choices: [])
            var choices = label.choices
            let top = available.max() ?? 0
            while choices.count <= top { choices.append("option \(choices.count)") }
            let chosen = group < options.count ? options[group] : 0
            guard chosen >= 0, chosen < choices.count else {
                throw reader.fail(
                    keymap,
                    "option group \(group) (\(label.name)) has choices 0 to \(choices.count - 1); \(chosen) was chosen")
            }
            groups.append(OptionGroup(name: label.name, choices: choices, chosen: chosen))
            guard !members.isEmpty else { continue }
            let first = members.filter { $0.option == 0 }
            var picked = members.filter { $0.option == chosen }
            // VIA draws every option of a group where its first option is: the chosen keys move by the distance
            // between the top-left keys of the two.
            if chosen != 0, let anchor = pivot(first), let own = pivot(picked) {
                for index in picked.indices {
                    picked[index].frame.x -= own.x - anchor.x
                    picked[index].frame.y -= own.y - anchor.y
                }
            }
            keys += picked
        }
        return (keys, groups)
    }

    /// The top-left corner of the top-most, then left-most, key.
    private static func pivot(_ keys: [PlacedKey]) -> (x: Double, y: Double)? {
        keys.map { (x: $0.frame.x, y: $0.frame.y) }.min { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    // MARK: Names

    private static func layout(_ keys: [PlacedKey], id: LayoutID, name: String, reader: Reader)
        throws(KeymapFileError) -> PhysicalLayout
    {
        guard let firstKey = keys.first else {
            throw KeymapFileError(line: 1, column: 1, "the layout has no keys")
        }
        guard keys.count <= PhysicalLayout.maximumKeys else {
            throw reader.fail(
                firstKey.source, "the layout has \(keys.count) keys; at most \(PhysicalLayout.maximumKeys) are allowed")
        }
        var owners: [MatrixPosition: PlacedKey] = [:]
        for key in keys {
            if let other = owners[key.matrix] {
                let place = PositionedJSON.position(of: other.source.offset, in: reader.bytes)
                throw reader.fail(
                    key.source,
                    "matrix position \(key.matrix.row),\(key.matrix.column) is also the key at line \(place.line), "
                        + "column \(place.column): a layout has one key per switch")
            }
            owners[key.matrix] = key
        }
        // The layout starts at (0, 0), as VIA draws it.
        let minimumX = keys.map(\.frame.x).min() ?? 0
        let minimumY = keys.map(\.frame.y).min() ?? 0
        let frames = keys.map {
            KeyFrame(
                x: $0.frame.x - minimumX, y: $0.frame.y - minimumY, width: $0.frame.width, height: $0.frame.height)
        }
        let names = Self.names(for: frames, matrix: keys.map(\.matrix))
        var physical: [PhysicalKey] = []
        let hasFunctionKeys = names.contains("F1")
        for (index, key) in keys.enumerated() {
            let keyName: KeyName
            do {
                keyName = try KeyName(names[index])
            } catch {
                throw reader.fail(key.source, "no key name for this key: \(error)")
            }
            physical.append(
                PhysicalKey(
                    name: keyName, zone: PhysicalLayout.zone(forKeyName: keyName, hasFunctionKeys: hasFunctionKeys),
                    frame: frames[index], matrix: key.matrix,
                    defaultAction: PhysicalKey.impliedAction(for: keyName)))
        }
        do {
            return try PhysicalLayout(id: id, name: name, keys: physical)
        } catch {
            throw reader.fail(firstKey.source, "the layout is refused: \(error)")
        }
    }

    /// Names by place: the built-in layout whose keys sit where the most of these do lends the names of those keys;
    /// every other key is `R<row>C<column>`.
    private static func names(for frames: [KeyFrame], matrix: [MatrixPosition]) -> [String] {
        func place(_ frame: KeyFrame) -> [Int] {
            [frame.x, frame.y, frame.width, frame.height].map { Int(($0 * 100).rounded()) }
        }
        let wanted = frames.map(place)
        var best: [[Int]: String] = [:]
        var bestCount = 0
        for builtIn in PhysicalLayout.allBuiltIn() {
            let minimumX = builtIn.keys.map(\.frame.x).min() ?? 0
            let minimumY = builtIn.keys.map(\.frame.y).min() ?? 0
            var byPlace: [[Int]: String] = [:]
            for key in builtIn.keys {
                var frame = key.frame
                frame.x -= minimumX
                frame.y -= minimumY
                byPlace[place(frame)] = key.name.rawValue
            }
            let count = wanted.filter { byPlace[$0] != nil }.count
            if count > bestCount {
                best = byPlace
                bestCount = count
            }
        }
        // A few keys in common is chance, not shape: a 4×4 pad shares a 75%'s top-left 8 keys, and a macro pad's
        // keys are no ESC or F1 even where they sit like them.
        if bestCount * 4 < frames.count * 3 || bestCount < 30 { best = [:] }
        return frames.indices.map { best[wanted[$0]] ?? "R\(matrix[$0].row)C\(matrix[$0].column)" }
    }
}

extension VIADefinition {
    /// Reads members, with the refusals naming their place.
    struct Reader {
        let bytes: [UInt8]

        func fail(_ value: PositionedJSON, _ reason: String) -> KeymapFileError {
            KeymapFileError(PositionedJSON.position(of: value.offset, in: bytes), reason)
        }

        func member(_ object: PositionedJSON, _ key: String) throws(KeymapFileError) -> PositionedJSON {
            guard let value = object[key] else { throw fail(object, "'\(key)' is missing") }
            return value
        }

        func string(_ object: PositionedJSON, _ key: String, maximumBytes: Int) throws(KeymapFileError) -> String {
            let value = try member(object, key)
            guard case .string(let text, _) = value, !text.isEmpty, text.utf8.count <= maximumBytes,
                !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw fail(value, "'\(key)' is a string of 1 to \(maximumBytes) bytes without control characters")
            }
            return text
        }

        /// `"0x6F75"`: `0x` and 1 to 4 hex digits.
        func hexID(_ object: PositionedJSON, _ key: String) throws(KeymapFileError) -> UInt16 {
            let value = try member(object, key)
            guard case .string(let text, _) = value, text.lowercased().hasPrefix("0x"), (3...6).contains(text.count),
                let number = UInt16(text.dropFirst(2), radix: 16)
            else {
                throw fail(value, "'\(key)' is a hex string such as \"0x6F75\" (0x and 1 to 4 hex digits)")
            }
            return number
        }

        func integer(_ object: PositionedJSON, _ key: String, in range: ClosedRange<Int>) throws(KeymapFileError)
            -> Int
        {
            let value = try member(object, key)
            guard case .number(let text, _) = value, let number = Int(text), range.contains(number) else {
                throw fail(value, "'\(key)' is a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }

        /// `labels`: each a name (an on/off option) or `[name, choice, choice...]`.
        func optionLabels(_ value: PositionedJSON?) throws(KeymapFileError) -> [(name: String, choices: [String])] {
            guard let value else { return [] }
            guard case .array(let elements, _) = value, elements.count <= 64 else {
                throw fail(value, "'labels' is a list of at most 64 option labels")
            }
            var labels: [(name: String, choices: [String])] = []
            for element in elements {
                switch element {
                case .string(let name, _):
                    labels.append((String(name.prefix(64)), ["off", "on"]))
                case .array(let parts, _):
                    var texts: [String] = []
                    for part in parts {
                        guard case .string(let text, _) = part else {
                            throw fail(part, "an option label lists strings: [name, choice, choice...]")
                        }
                        texts.append(String(text.prefix(64)))
                    }
                    guard texts.count >= 2, texts.count <= 33 else {
                        throw fail(element, "an option label is [name, choice, choice...] with 1 to 32 choices")
                    }
                    labels.append((texts[0], Array(texts.dropFirst())))
                default:
                    throw fail(element, "an option label is a string or [name, choice, choice...]")
                }
            }
            return labels
        }

        /// The keys of the KLE rows, every option's, placed as VIA places them.
        func keys(_ keymap: PositionedJSON, rows: Int, columns: Int) throws(KeymapFileError) -> [PlacedKey] {
            guard case .array(let kleRows, _) = keymap else {
                throw fail(keymap, "'keymap' is a list of keyboard-layout-editor rows")
            }
            var placed: [PlacedKey] = []
            var y = 0.0
            var alignment = 0
            var rotationX = 0.0
            for row in kleRows {
                // A leading metadata object (KLE's) is not a row.
                guard case .array(let items, _) = row else { continue }
                var x = 0.0
                var width = 1.0
                var height = 1.0
                var decal = false
                for item in items {
                    switch item {
                    case .object(let properties, _):
                        for (key, value) in properties {
                            switch key {
                            case "x": x += try number(value, key, -100...100)
                            case "y": y += try number(value, key, -100...100)
                            case "w": width = try number(value, key, 0.25...100)
                            case "h": height = try number(value, key, 0.25...100)
                            case "a": alignment = Int(try number(value, key, 0...7))
                            case "d": if case .bool(let flag, _) = value { decal = flag }
                            case "r":
                                if try number(value, key, -360...360) != 0 {
                                    throw fail(value, "rotated keys ('r') are not supported")
                                }
                            case "rx":
                                rotationX = try number(value, key, -100...100)
                                x = 0
                            case "ry":
                                y = try number(value, key, -100...100)
                                x = 0
                            default: continue
                            }
                        }
                    case .string(let label, _):
                        defer {
                            x += width
                            width = 1
                            height = 1
                            decal = false
                        }
                        if decal { continue }
                        let legends = Self.legends(label, alignment: alignment)
                        let matrixLegend = legends[0]
                        if matrixLegend.isEmpty, Self.isEncoder(legends[4]) { continue }
                        guard let matrix = Self.pair(matrixLegend) else {
                            throw fail(
                                item,
                                "the key '\(KeymapError.printable(label))' has no matrix position: VIA keys carry "
                                    + "'row,col' as their first legend")
                        }
                        guard matrix.0 < rows, matrix.1 < columns else {
                            throw fail(
                                item,
                                "matrix position \(matrix.0),\(matrix.1) is outside the matrix of \(rows) rows and "
                                    + "\(columns) columns")
                        }
                        var group: Int?
                        var option = 0
                        if !legends[8].isEmpty {
                            guard let pair = Self.pair(legends[8]), pair.0 < 64, pair.1 < 32 else {
                                throw fail(
                                    item,
                                    "the layout option '\(KeymapError.printable(legends[8]))' is not 'group,option' "
                                        + "(group below 64, option below 32)")
                            }
                            (group, option) = (pair.0, pair.1)
                        }
                        placed.append(
                            PlacedKey(
                                frame: KeyFrame(x: x + rotationX, y: y, width: width, height: height),
                                matrix: MatrixPosition(row: matrix.0, column: matrix.1), group: group, option: option,
                                source: item))
                        guard placed.count <= VIADefinition.maximumKLEKeys else {
                            throw fail(item, "more than \(VIADefinition.maximumKLEKeys) keys")
                        }
                    default:
                        throw fail(item, "a keyboard-layout-editor row holds key labels and property objects only")
                    }
                }
                y += 1
            }
            return placed
        }

        private func number(_ value: PositionedJSON, _ key: String, _ range: ClosedRange<Double>)
            throws(KeymapFileError) -> Double
        {
            guard case .number(let text, _) = value, let number = Double(text), range.contains(number) else {
                throw fail(value, "'\(key)' is a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }

        /// KLE's legend order for each alignment `a` (keyboard-layout-editor's serial format): the place of the
        /// n-th line of a label. VIA reads the matrix position at place 0, the option at 8 and an encoder at 4.
        private static let legendPlaces: [[Int]] = [
            [0, 6, 2, 8, 9, 11, 3, 5, 1, 4, 7, 10], [1, 7, -1, -1, 9, 11, 4, -1, -1, -1, -1, 10],
            [3, -1, 5, -1, 9, 11, -1, -1, 4, -1, -1, 10], [4, -1, -1, -1, 9, 11, -1, -1, -1, -1, -1, 10],
            [0, 6, 2, 8, 10, -1, 3, 5, 1, 4, 7, -1], [1, 7, -1, -1, 10, -1, 4, -1, -1, -1, -1, -1],
            [3, -1, 5, -1, 10, -1, -1, -1, 4, -1, -1, -1], [4, -1, -1, -1, 10, -1, -1, -1, -1, -1, -1, -1],
        ]

        /// The 12 legends of a label, by place.
        static func legends(_ label: String, alignment: Int) -> [String] {
            var legends = [String](repeating: "", count: 12)
            let places = legendPlaces[min(max(alignment, 0), 7)]
            for (line, text) in label.split(separator: "\n", omittingEmptySubsequences: false).prefix(12).enumerated() {
                let place = places[line]
                if place >= 0 { legends[place] = text.trimmingCharacters(in: " \t\r") }
            }
            return legends
        }

        /// `row,col` (or with a full-width comma, as VIA accepts).
        static func pair(_ text: String) -> (Int, Int)? {
            let parts = text.split(whereSeparator: { $0 == "," || $0 == "，" })
            guard parts.count == 2, parts.allSatisfy({ $0.count <= 3 }),
                let first = Int(parts[0].trimmingCharacters(in: " ")),
                let second = Int(parts[1].trimmingCharacters(in: " ")), first >= 0, second >= 0
            else { return nil }
            return (first, second)
        }

        /// `e0`: an encoder's legend.
        static func isEncoder(_ text: String) -> Bool {
            guard let first = text.first, first == "e" || first == "E" else { return false }
            let digits = text.dropFirst()
            return !digits.isEmpty && digits.count <= 3 && digits.allSatisfy(\.isNumber)
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}
