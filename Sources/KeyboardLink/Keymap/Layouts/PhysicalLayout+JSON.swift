import Glibc
import KeyboardLinkSupport

/// User layouts as JSON files.
///
/// ```json
/// {
///   "id": "my-board",
///   "name": "My board",
///   "keys": [
///     { "name": "ESC", "zone": "function", "x": 0, "y": 0, "row": 0, "col": 0 },
///     { "name": "SPACE", "zone": "standard", "x": 3.75, "y": 5.5, "w": 6.25, "row": 5, "col": 3 },
///     { "name": "FN", "zone": "standard", "x": 11.25, "y": 5.5, "w": 1.25, "row": 5, "col": 5, "action": "MO(1)" }
///   ]
/// }
/// ```
///
/// - `id`: 1 to 64 of `a-z 0-9 - _ .`; `name`: optional, for people (the id when missing).
/// - `keys`: every key with `name` (1 to 32 of `A-Z 0-9 _`, the stable key name), `zone` (`standard`, `number`,
///   `function` or `navigation`), `x`, `y` (top-left corner in key units, y downwards), optional `w`, `h`
///   (size, default 1), `row`, `col` (matrix position, 0-255) and optional `action` (what layer 0 does by default,
///   in any spelling `KeyAction(parsing:)` reads; derived from the name when missing: `ESC` is `KC_ESC`, `FN` is
///   `MO(1)`, unknown names do nothing).
/// - The checks of `PhysicalLayout.init` apply: unique names and matrix positions, no overlapping keys.
extension PhysicalLayout {
    private struct File: Codable {
        var id: String
        var name: String?
        var keys: [Key]
    }

    private struct Key: Codable {
        var name: String
        var zone: String
        var x: Double
        var y: Double
        var w: Double?
        var h: Double?
        var row: Int
        var col: Int
        var action: String?
    }

    /// Reads a layout from its JSON form (see above).
    /// - Throws: `KeymapError.invalidLayout` naming the problem and, for a bad key, its index and name.
    package init(json: [UInt8]) throws(KeymapError) {
        guard json.count <= FileStore.maximumReadSize else { throw .invalidLayout("the layout file is too large") }
        let file: File
        do {
            file = try JSONCodec.decode(File.self, from: json)
        } catch {
            throw .invalidLayout("not a layout JSON file: \(JSONCodec.describe(error))")
        }
        var keys: [PhysicalKey] = []
        for (index, key) in file.keys.enumerated() {
            do {
                let name = try KeyName(key.name)
                let action = try key.action.map { text throws(KeymapError) in try KeyAction(parsing: text) }
                keys.append(
                    PhysicalKey(
                        name: name, zone: try ZoneID(parsing: key.zone),
                        frame: KeyFrame(x: key.x, y: key.y, width: key.w ?? 1, height: key.h ?? 1),
                        matrix: MatrixPosition(row: key.row, column: key.col),
                        defaultAction: action ?? PhysicalKey.impliedAction(for: name)))
            } catch {
                throw .invalidLayout("key \(index) (\(KeymapError.printable(key.name))): \(error.description)")
            }
        }
        try self.init(id: try LayoutID(file.id), name: file.name ?? file.id, keys: keys)
    }

    /// The layout in its JSON form, which `PhysicalLayout(json:)` reads back to an equal layout.
    package func jsonData() -> [UInt8] {
        let file = File(
            id: id.rawValue, name: name,
            keys: keys.map {
                Key(
                    name: $0.name.rawValue, zone: $0.zone.rawValue, x: $0.frame.x, y: $0.frame.y, w: $0.frame.width,
                    h: $0.frame.height, row: $0.matrix.row, col: $0.matrix.column, action: $0.defaultAction.description)
            })
        return ProfileJSON.encode(file)
    }

    /// What loading a directory of user layouts found.
    package struct UserLayouts: Sendable {
        /// The layouts that loaded, by file name order.
        package var layouts: [PhysicalLayout]
        /// The files that did not load, with the reason.
        package var problems: [Problem]

        /// A file that did not load.
        package struct Problem: Sendable {
            /// The file name (or the directory, when it could not be listed).
            package var file: String
            /// Why it did not load.
            package var error: KeymapError
        }
    }

    /// Loads every user layout in a directory: `*.kle.json` and `*.kle` files as KLE layouts (the id is the file
    /// name without its extension), other `*.json` files in kblink's layout format. A missing directory has no
    /// layouts; a file that does not load is reported and skipped.
    package static func loadUserLayouts(from directory: String) -> UserLayouts {
        loadUserLayouts(from: directory, store: FileStore())
    }

    static func loadUserLayouts(from directory: String, store: FileStore) -> UserLayouts {
        var result = UserLayouts(layouts: [], problems: [])
        let names: [String]
        do {
            names = try store.list(directory)
        } catch {
            if error.errno == ENOENT { return result }
            result.problems.append(.init(file: directory, error: KeymapError(error)))
            return result
        }
        for name in names where name.hasSuffix(".json") || name.hasSuffix(".kle") {
            let path = directory + "/" + name
            do {
                guard let bytes = try KeymapError.file({ () throws(FileError) in try store.read(path) }) else {
                    continue
                }
                if name.hasSuffix(".kle.json") || name.hasSuffix(".kle") {
                    let stem = name.hasSuffix(".kle") ? String(name.dropLast(4)) : String(name.dropLast(9))
                    let text = String(decoding: bytes, as: UTF8.self)
                    result.layouts.append(try PhysicalLayout(importingKLE: text, id: try LayoutID(stem)))
                } else {
                    result.layouts.append(try PhysicalLayout(json: bytes))
                }
            } catch {
                result.problems.append(.init(file: name, error: error))
            }
        }
        return result
    }
}
