extension PhysicalLayout {
    /// Imports a keyboard-layout-editor (KLE) layout: its JSON download or the raw data KLE shows.
    ///
    /// Rows are arrays of labels (strings) and property objects. Supported properties: `x` and `y` (move the next
    /// key right or down, in key units), `w` and `h` (size of the next key), `d` (a decal, not a key); `r`, `rx`
    /// and `ry` must be 0 (rotated keys are refused); the others (colours, fonts, alignment, stepped keys) are
    /// ignored. A leading metadata object is skipped (its `name` names the layout when `name` is nil).
    /// Key names come from the labels (see `KLELabels`); a first legend `row,col` (as VIA layouts have) gives the
    /// matrix position, otherwise keys take (KLE row, position in the row). Zones follow from the key names.
    /// - Throws: `KeymapError.invalidLayout` for unreadable data, rotation, or a layout that fails the checks.
    package init(importingKLE text: String, id: LayoutID, name: String? = nil) throws(KeymapError) {
        var reader = KLEReader(text)
        let rows = try reader.rows()
        var metadataName: String?
        struct Placed {
            var label: String
            var frame: KeyFrame
            var matrix: MatrixPosition
        }
        var placed: [Placed] = []
        var y = 0.0
        var rowNumber = 0
        for (rowIndex, row) in rows.enumerated() {
            if rowIndex == 0, case .object(let properties) = row {
                for (key, value) in properties where key == "name" {
                    if case .string(let text) = value { metadataName = text }
                }
                continue
            }
            guard case .array(let items) = row else {
                throw .invalidLayout("KLE row \(rowIndex + 1) is not a list of keys")
            }
            var x = 0.0
            var width = 1.0
            var height = 1.0
            var decal = false
            var column = 0
            for item in items {
                switch item {
                case .object(let properties):
                    for (key, value) in properties {
                        let number: Double?
                        if case .number(let value) = value { number = value } else { number = nil }
                        switch key {
                        case "x": x += try Self.kleNumber(number, key, rowIndex)
                        case "y": y += try Self.kleNumber(number, key, rowIndex)
                        case "w": width = try Self.kleNumber(number, key, rowIndex)
                        case "h": height = try Self.kleNumber(number, key, rowIndex)
                        case "d": if case .bool(let flag) = value { decal = flag }
                        case "r", "rx", "ry":
                            if try Self.kleNumber(number, key, rowIndex) != 0 {
                                throw .invalidLayout("KLE row \(rowIndex + 1): rotated keys are not supported")
                            }
                        default: continue
                        }
                    }
                case .string(let label):
                    if !decal {
                        var matrix = MatrixPosition(row: rowNumber, column: column)
                        var legendText = label
                        let legends = label.split(separator: "\n", omittingEmptySubsequences: false)
                        if let first = legends.first, let position = Self.matrixLegend(first) {
                            matrix = position
                            legendText = legends.dropFirst().joined(separator: "\n")
                        }
                        placed.append(
                            Placed(
                                label: legendText, frame: KeyFrame(x: x, y: y, width: width, height: height),
                                matrix: matrix))
                        column += 1
                    }
                    x += width
                    width = 1
                    height = 1
                    decal = false
                default:
                    throw .invalidLayout(
                        "KLE row \(rowIndex + 1) holds something that is neither a label nor properties")
                }
            }
            y += 1
            rowNumber += 1
        }
        guard placed.count <= Self.maximumKeys else {
            throw .invalidLayout("the KLE layout has \(placed.count) keys; at most \(Self.maximumKeys) are allowed")
        }

        // Names: fixed ones first, then ambiguous ones in reading order, then fallbacks, all unique.
        let candidates = placed.map { KLELabels.candidates(for: $0.label, width: $0.frame.width) }
        var names = [String?](repeating: nil, count: placed.count)
        var taken = Set<String>()
        func claim(_ name: String) -> String {
            var unique = name
            var suffix = 2
            while taken.contains(unique) {
                unique = "\(name)_\(suffix)"
                suffix += 1
            }
            taken.insert(unique)
            return unique
        }
        for (index, options) in candidates.enumerated() where options.count == 1 {
            names[index] = claim(options[0])
        }
        for (index, options) in candidates.enumerated() where options.count > 1 {
            names[index] = claim(options.first(where: { !taken.contains($0) }) ?? options[0])
        }
        for index in placed.indices where names[index] == nil {
            names[index] = claim(KLELabels.fallbackName(for: placed[index].label) ?? "K\(index)")
        }
        let finalNames = names.map { $0 ?? "" }
        let hasFunctionKeys = finalNames.contains { $0.hasPrefix("F") && Int($0.dropFirst()) != nil }
        var keys: [PhysicalKey] = []
        for (index, key) in placed.enumerated() {
            let keyName = try KeyName(finalNames[index])
            keys.append(
                PhysicalKey(
                    name: keyName, zone: KLELabels.zone(for: keyName.rawValue, hasFunctionKeys: hasFunctionKeys),
                    frame: key.frame, matrix: key.matrix, defaultAction: PhysicalKey.impliedAction(for: keyName)))
        }
        try self.init(id: id, name: name ?? metadataName ?? id.rawValue, keys: keys)
    }

    /// The zone a key name suggests (`F1` is in the function zone when the layout has function keys, `KP_1` in the
    /// number zone, `HOME` in the navigation zone, anything else in the standard zone).
    package static func zone(forKeyName name: KeyName, hasFunctionKeys: Bool) -> ZoneID {
        KLELabels.zone(for: name.rawValue, hasFunctionKeys: hasFunctionKeys)
    }

    private static func kleNumber(_ value: Double?, _ key: String, _ row: Int) throws(KeymapError) -> Double {
        guard let value, value.isFinite, abs(value) <= 100 else {
            throw .invalidLayout("KLE row \(row + 1): property '\(key)' needs a number from -100 to 100")
        }
        return value
    }

    private static func matrixLegend(_ legend: Substring) -> MatrixPosition? {
        let parts = legend.split(separator: ",")
        guard parts.count == 2, let row = Int(parts[0]), let column = Int(parts[1]), row >= 0, column >= 0 else {
            return nil
        }
        return MatrixPosition(row: row, column: column)
    }
}
