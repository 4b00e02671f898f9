import Glibc
import KBlinkAPI
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// The layouts `AddLayout` taught kblinkd, one JSON file each in `<state dir>/added-layouts`, `<id>.json`, written
/// atomically (``FileStore``). A file holds the ``KeyboardLayoutDefinition`` as given, with a `schemaVersion`;
/// loading checks it again as `AddLayout` does, so a file edited by hand is never trusted more than a caller.
struct AddedLayoutStore: Sendable {
    /// The directory.
    let directory: String
    private let files = FileStore()

    private struct Document: Codable {
        var schemaVersion: Int
        var id: String
        var name: String
        var vendorId: UInt16
        var productId: UInt16
        var matrixRows: UInt16
        var matrixColumns: UInt16
        var source: String
        var keys: [Key]
    }

    private struct Key: Codable {
        var name: String
        var zone: String
        var x: Double
        var y: Double
        var w: Double
        var h: Double
        var row: UInt16
        var col: UInt16
        var action: String
    }

    /// The path of a layout's file.
    func path(of id: LayoutID) -> String { directory + "/" + id.rawValue + ".json" }

    /// Writes a layout's file atomically.
    /// - Returns: nil, or the directory `fsync`'s error when only that failed (the file is in place).
    /// - Throws: ``FileError`` when the file could not be written; the previous one is then untouched.
    func save(_ definition: KeyboardLayoutDefinition, id: LayoutID) throws(FileError) -> FileError? {
        try files.makeDirectory(directory)
        let document = Document(
            schemaVersion: 1, id: definition.id, name: definition.name, vendorId: definition.vendorID,
            productId: definition.productID, matrixRows: definition.matrixRows,
            matrixColumns: definition.matrixColumns, source: definition.source,
            keys: definition.keys.map {
                Key(
                    name: $0.name, zone: $0.zone, x: $0.x, y: $0.y, w: $0.width, h: $0.height, row: $0.row,
                    col: $0.column, action: $0.action)
            })
        let bytes = (try? JSONCodec.encode(document, options: [.prettyPrinted, .sortedKeys])) ?? []
        return try files.writeAtomically(bytes + [0x0A], to: path(of: id))
    }

    /// Removes a layout's file.
    func remove(_ id: LayoutID) throws(FileError) -> FileError? {
        try files.remove(path(of: id))
    }

    /// What loading found: the layouts that loaded, and the files that did not with the reason.
    struct Loaded {
        var layouts: [(definition: KeyboardLayoutDefinition, layout: PhysicalLayout)] = []
        var problems: [(file: String, reason: String)] = []
    }

    /// Loads every `*.json` file of the directory; a missing directory holds none.
    func load() -> Loaded {
        var loaded = Loaded()
        let names: [String]
        do {
            names = try files.list(directory)
        } catch {
            if error.errno != ENOENT { loaded.problems.append((directory, "\(error)")) }
            return loaded
        }
        for name in names where name.hasSuffix(".json") {
            do {
                guard let bytes = try files.read(directory + "/" + name) else { continue }
                let document = try JSONCodec.decode(Document.self, from: bytes)
                guard document.schemaVersion == 1 else {
                    loaded.problems.append((name, "schemaVersion \(document.schemaVersion) is not 1"))
                    continue
                }
                let definition = KeyboardLayoutDefinition(
                    id: document.id, name: document.name, vendorID: document.vendorId, productID: document.productId,
                    matrixRows: document.matrixRows, matrixColumns: document.matrixColumns, source: document.source,
                    keys: document.keys.map {
                        LayoutKeyRow(
                            name: $0.name, zone: $0.zone, x: $0.x, y: $0.y, width: $0.w, height: $0.h, row: $0.row,
                            column: $0.col, action: $0.action)
                    })
                let layout = try definition.physicalLayout()
                guard name == layout.id.rawValue + ".json" else {
                    loaded.problems.append((name, "the file of layout \(layout.id) is named \(layout.id).json"))
                    continue
                }
                loaded.layouts.append((definition, layout))
            } catch let error as KeymapError {
                loaded.problems.append((name, error.description))
            } catch {
                loaded.problems.append((name, JSONCodec.describe(error)))
            }
        }
        return loaded
    }
}
