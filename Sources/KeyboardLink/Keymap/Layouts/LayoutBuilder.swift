/// Builds layouts row by row from short descriptions, for the built-in layouts and tests.
///
/// A row description lists keys separated by spaces: `NAME` is a 1u key, `NAME:2.25` a wide key, `NAME:1x2` a
/// tall one, `+0.5` a gap. Each call places one run of keys of one zone on one matrix row; matrix columns count
/// on across calls for the same row.
struct LayoutBuilder {
    private(set) var keys: [PhysicalKey] = []
    private var nextColumn: [Int: Int] = [:]

    mutating func row(_ row: Int, y: Double, x: Double = 0, _ zone: ZoneID, _ description: String) throws(KeymapError) {
        var cursor = x
        for token in description.split(separator: " ") {
            if token.hasPrefix("+") {
                guard let gap = Double(token.dropFirst()) else { throw .invalidLayout("bad gap '\(token)'") }
                cursor += gap
                continue
            }
            let parts = token.split(separator: ":")
            guard let first = parts.first else { throw .invalidLayout("bad key '\(token)'") }
            let name = try KeyName(String(first))
            var width = 1.0
            var height = 1.0
            if parts.count == 2 {
                let size = parts[1].split(separator: "x").map { Double($0) }
                guard let parsedWidth = size.first ?? nil, size.count <= 2 else {
                    throw .invalidLayout("bad size in '\(token)'")
                }
                width = parsedWidth
                if size.count == 2 {
                    guard let parsedHeight = size[1] else { throw .invalidLayout("bad size in '\(token)'") }
                    height = parsedHeight
                }
            }
            let column = nextColumn[row, default: 0]
            nextColumn[row] = column + 1
            keys.append(
                PhysicalKey(
                    name: name, zone: zone, frame: KeyFrame(x: cursor, y: y, width: width, height: height),
                    matrix: MatrixPosition(row: row, column: column),
                    defaultAction: PhysicalKey.impliedAction(for: name)))
            cursor += width
        }
    }

    func build(id: String, name: String) throws(KeymapError) -> PhysicalLayout {
        try PhysicalLayout(id: try LayoutID(id), name: name, keys: keys)
    }
}
