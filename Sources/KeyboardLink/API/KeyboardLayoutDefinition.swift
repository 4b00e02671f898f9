import KeyboardLinkDBus
import KeyboardLinkKeymap

/// A keyboard's layout as `kblink layout add` hands it to kblinkd (`AddLayout`) and `GetLayout` answers it, for the
/// keyboards with its USB vendor and product IDs; on the wire `(ssqqqqsa(ssddddqqs))`: id, name, vendor ID,
/// product ID, matrix rows, matrix columns, where it came from (`VIA v3 definition`), keys (``LayoutKeyRow``).
///
/// The CLI makes one from a VIA definition it parsed; kblinkd trusts none of it: ``physicalLayout()`` checks it
/// whole before the daemon stores or uses it.
public struct KeyboardLayoutDefinition: Sendable, Equatable, DBusWireMapped {
    /// The layout id (`1up60hse`).
    public var id: String
    /// A name for people.
    public var name: String
    /// The USB vendor ID of the keyboards it is for.
    public var vendorID: UInt16
    /// The USB product ID.
    public var productID: UInt16
    /// Switch-matrix rows.
    public var matrixRows: UInt16
    /// Switch-matrix columns.
    public var matrixColumns: UInt16
    /// Where it came from, for people (`VIA v3 definition, options: Enter=ISO`).
    public var source: String
    /// The keys.
    public var keys: [LayoutKeyRow]

    /// The most rows, and the most columns, of a matrix.
    public static let maximumMatrixSide: UInt16 = 64
    /// The longest ``source``, in bytes.
    public static let maximumSourceLength = 256

    /// A definition as given (checked by ``physicalLayout()``).
    public init(
        id: String, name: String, vendorID: UInt16, productID: UInt16, matrixRows: UInt16, matrixColumns: UInt16,
        source: String, keys: [LayoutKeyRow]
    ) {
        self.id = id
        self.name = name
        self.vendorID = vendorID
        self.productID = productID
        self.matrixRows = matrixRows
        self.matrixColumns = matrixColumns
        self.source = source
        self.keys = keys
    }

    /// The definition of a layout.
    package init(
        layout: PhysicalLayout, vendorID: UInt16, productID: UInt16, matrixRows: UInt16, matrixColumns: UInt16,
        source: String
    ) {
        self.init(
            id: layout.id.rawValue, name: layout.name, vendorID: vendorID, productID: productID,
            matrixRows: matrixRows, matrixColumns: matrixColumns, source: source,
            keys: layout.keys.map {
                LayoutKeyRow(
                    name: $0.name.rawValue, zone: $0.zone.rawValue, x: $0.frame.x, y: $0.frame.y,
                    width: $0.frame.width, height: $0.frame.height, row: UInt16(clamping: $0.matrix.row),
                    column: UInt16(clamping: $0.matrix.column), action: $0.defaultAction.description)
            })
    }

    /// The layout, checked whole: a valid id, IDs other than 0, a matrix of 1 to 64 rows and columns holding every
    /// key, valid key names, zones and actions, a short printable source, and the checks of `PhysicalLayout` (at
    /// most 512 keys, unique names and matrix positions, no overlaps).
    /// - Throws: `KeymapError.invalidLayout` naming the problem and, for a key, its index and name.
    package func physicalLayout() throws(KeymapError) -> PhysicalLayout {
        let layoutID = try LayoutID(id)
        guard vendorID != 0 || productID != 0 else {
            throw .invalidLayout("\(layoutID): vendor and product IDs 0000:0000 match no keyboard")
        }
        guard (1...Self.maximumMatrixSide).contains(matrixRows), (1...Self.maximumMatrixSide).contains(matrixColumns)
        else {
            throw .invalidLayout("\(layoutID): the matrix has 1 to \(Self.maximumMatrixSide) rows and columns")
        }
        guard source.utf8.count <= Self.maximumSourceLength,
            !source.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidLayout("\(layoutID): the source is longer than 256 bytes or holds control characters") }
        guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidLayout("\(layoutID): the name is empty or holds control characters")
        }
        guard keys.count <= PhysicalLayout.maximumKeys else {
            throw .invalidLayout(
                "\(layoutID) has \(keys.count) keys; at most \(PhysicalLayout.maximumKeys) are allowed")
        }
        var physical: [PhysicalKey] = []
        for (index, key) in keys.enumerated() {
            do {
                guard key.row < matrixRows, key.column < matrixColumns else {
                    throw KeymapError.invalidLayout(
                        "matrix position \(key.row),\(key.column) is outside the \(matrixRows) × \(matrixColumns) matrix"
                    )
                }
                physical.append(
                    PhysicalKey(
                        name: try KeyName(key.name), zone: try ZoneID(parsing: key.zone),
                        frame: KeyFrame(x: key.x, y: key.y, width: key.width, height: key.height),
                        matrix: MatrixPosition(row: Int(key.row), column: Int(key.column)),
                        defaultAction: try KeyAction(parsing: key.action)))
            } catch {
                throw .invalidLayout("\(layoutID), key \(index) (\(KeymapError.printable(key.name))): \(error)")
            }
        }
        return try PhysicalLayout(id: layoutID, name: name, keys: physical)
    }

    /// `(ssqqqqsa(ssddddqqs))`: id, name, vendor ID, product ID, matrix rows, matrix columns, source, keys.
    public typealias WireForm = DBusStruct<String, String, UInt16, UInt16, UInt16, UInt16, String, [LayoutKeyRow]>
    /// A definition from `(ssqqqqsa(ssddddqqs))` (not checked: see ``physicalLayout()``).
    public init(wireForm: WireForm) {
        (id, name, vendorID, productID, matrixRows, matrixColumns, source, keys) = wireForm.fields
    }
    /// The definition as `(ssqqqqsa(ssddddqqs))`.
    public var wireForm: WireForm { WireForm(id, name, vendorID, productID, matrixRows, matrixColumns, source, keys) }
}
