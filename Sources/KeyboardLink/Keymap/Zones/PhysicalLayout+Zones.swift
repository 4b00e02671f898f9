extension PhysicalLayout {
    /// Pairs the keys of two zones that have the same shape: the same number of keys, each with the same size at
    /// the same place relative to its zone's top-left corner. Pairs come in reading order.
    /// - Throws: `KeymapError.zoneNotInLayout`, or `.zoneShapeMismatch` saying how the zones differ.
    package func zoneCorrespondence(_ first: ZoneID, _ second: ZoneID) throws(KeymapError) -> [(KeyName, KeyName)] {
        let a = try keys(in: first)
        let b = try keys(in: second)
        guard a.count == b.count else {
            throw .zoneShapeMismatch(
                first: first.rawValue, second: second.rawValue,
                reason: "\(first) has \(a.count) keys and \(second) has \(b.count)")
        }
        let originA = Self.origin(of: a)
        let originB = Self.origin(of: b)
        var pairs: [(KeyName, KeyName)] = []
        for (keyA, keyB) in zip(a, b) {
            let frameA = keyA.frame
            let frameB = keyB.frame
            let same =
                abs((frameA.x - originA.x) - (frameB.x - originB.x)) < 1e-6
                && abs((frameA.y - originA.y) - (frameB.y - originB.y)) < 1e-6
                && abs(frameA.width - frameB.width) < 1e-6 && abs(frameA.height - frameB.height) < 1e-6
            guard same else {
                throw .zoneShapeMismatch(
                    first: first.rawValue, second: second.rawValue,
                    reason: "\(keyA.name) and \(keyB.name), the keys in the same place in reading order, "
                        + "differ in place or size")
            }
            pairs.append((keyA.name, keyB.name))
        }
        return pairs
    }

    private static func origin(of keys: [PhysicalKey]) -> (x: Double, y: Double) {
        (keys.map(\.frame.x).min() ?? 0, keys.map(\.frame.y).min() ?? 0)
    }
}
