/// A keyboard's physical layout: its keys with names, zones, places and matrix positions.
///
/// Creating one checks it: at least one key, at most 512, unique names, unique matrix positions, finite places with
/// positive sizes, and no two keys sharing area.
package struct PhysicalLayout: Hashable, Sendable {
    /// The layout id (`aula-f87`).
    package let id: LayoutID
    /// A name for people (`AULA F87`).
    package let name: String
    /// The keys, in reading order: by top edge, then by left edge.
    package let keys: [PhysicalKey]
    private let indexByName: [KeyName: Int]

    /// The most keys a layout may have.
    package static let maximumKeys = 512

    /// Creates and checks a layout.
    /// - Throws: `KeymapError.invalidLayout` naming the problem (duplicate key, overlapping keys, ...).
    package init(id: LayoutID, name: String, keys: [PhysicalKey]) throws(KeymapError) {
        guard !keys.isEmpty else { throw .invalidLayout("\(id) has no keys") }
        guard keys.count <= Self.maximumKeys else {
            throw .invalidLayout("\(id) has \(keys.count) keys; at most \(Self.maximumKeys) are allowed")
        }
        guard name.utf8.count <= 128 else { throw .invalidLayout("the name of \(id) is longer than 128 bytes") }
        var indexByName: [KeyName: Int] = [:]
        var matrixOwners: [MatrixPosition: KeyName] = [:]
        for (index, key) in keys.enumerated() {
            if indexByName[key.name] != nil { throw .invalidLayout("\(id) has two keys named \(key.name)") }
            indexByName[key.name] = index
            if let other = matrixOwners[key.matrix] {
                throw .invalidLayout("\(id): keys \(other) and \(key.name) share matrix position \(key.matrix)")
            }
            guard key.matrix.row >= 0, key.matrix.column >= 0, key.matrix.row < 256, key.matrix.column < 256 else {
                throw .invalidLayout("\(id): key \(key.name) has matrix position \(key.matrix) outside 0-255")
            }
            matrixOwners[key.matrix] = key.name
            let frame = key.frame
            guard [frame.x, frame.y, frame.width, frame.height].allSatisfy({ $0.isFinite && abs($0) <= 1_000 }),
                frame.width > 0, frame.height > 0
            else { throw .invalidLayout("\(id): key \(key.name) has an invalid place or size") }
        }
        // Keys are few (at most 512): sorting by x and sweeping keeps the check cheap anyway.
        let sorted = keys.sorted { $0.frame.x < $1.frame.x }
        for (index, key) in sorted.enumerated() {
            var next = index + 1
            while next < sorted.count, sorted[next].frame.x < key.frame.x + key.frame.width - 1e-6 {
                if key.frame.overlaps(sorted[next].frame) {
                    throw .invalidLayout("\(id): keys \(key.name) and \(sorted[next].name) overlap")
                }
                next += 1
            }
        }
        self.id = id
        self.name = name
        // Reading order (top to bottom, then left to right) whatever order the keys came in.
        self.keys = keys.sorted { ($0.frame.y, $0.frame.x) < ($1.frame.y, $1.frame.x) }
        self.indexByName = Dictionary(uniqueKeysWithValues: self.keys.enumerated().map { ($1.name, $0) })
    }

    /// The zones this layout defines, in the order standard, number, function, navigation.
    package var zones: [ZoneID] {
        let present = Set(keys.map(\.zone))
        return ZoneID.allCases.filter(present.contains)
    }

    /// The key with this name, or the key whose keycap the name spells (see `resolveKey(_:)`).
    /// - Throws: `KeymapError.unknownKey` with the nearest key name or keycap label of this layout.
    package func key(named name: KeyName) throws(KeymapError) -> PhysicalKey {
        if let key = key(exactly: name) ?? keyByCap(name.rawValue) { return key }
        throw .unknownKey(name.rawValue, layout: id.rawValue, suggestion: suggestedKeyName(for: name.rawValue))
    }

    /// The key with exactly this name, or nil.
    package func key(exactly name: KeyName) -> PhysicalKey? {
        indexByName[name].map { keys[$0] }
    }

    /// The key a text names (see `resolveKey(_:)`).
    /// - Throws: `KeymapError.unknownKey`.
    package func key(named text: String) throws(KeymapError) -> PhysicalKey {
        try resolveKey(text)
    }

    /// The key's place in reading order (`Int.max` for names the layout does not have), for sorting keys.
    package func order(of name: KeyName) -> Int { indexByName[name] ?? Int.max }

    /// Whether the layout has a key with this name.
    package func contains(_ name: KeyName) -> Bool { indexByName[name] != nil }

    /// The keys of a zone, in reading order.
    /// - Throws: `KeymapError.zoneNotInLayout` when the layout has no such zone.
    package func keys(in zone: ZoneID) throws(KeymapError) -> [PhysicalKey] {
        let result = keys.filter { $0.zone == zone }
        guard !result.isEmpty else {
            throw .zoneNotInLayout(zone: zone.rawValue, layout: id.rawValue, available: zones.map(\.rawValue))
        }
        return result
    }

    /// The zone of a key of this layout, nil for names it does not have.
    package func zone(of name: KeyName) -> ZoneID? {
        indexByName[name].map { keys[$0].zone }
    }

    package static func == (lhs: PhysicalLayout, rhs: PhysicalLayout) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.keys == rhs.keys
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(keys)
    }
}
