/// Reads a GVDB file, the format of dconf's databases (`~/.config/dconf/user`): a hash table of keys whose values
/// are serialized GVariants.
///
/// The layout (GLib's `gvdb-format.h`, all little-endian): a 24-byte header (`GVariant` signature, version, options,
/// the root table's start and end); a table is `n_bloom_words` (the low 27 bits; the top 5 are a shift), `n_buckets`,
/// the bloom words, the buckets, then 24-byte items (`hash_value`, `parent`, `key_start`, `key_size`, `type`,
/// unused, the value's start and end). An item's key is only the part after its parent's (dconf stores `/org/`,
/// then `gnome/` under it...), so the full key is rebuilt by following `parent` (`0xffffffff`: none). Items of type
/// `v` hold a value; `L` (a list of children) and `H` (a nested table) hold none. This reader walks the items
/// instead of hashing, which is enough for the few hundred keys of a user database.
package struct GVDBTable: Sendable {
    /// Every value item: full key, and the serialized `v` GVariant (content, a zero byte, the type string).
    package let values: [String: [UInt8]]

    /// Parses the bytes of a GVDB file.
    /// - Throws: ``DconfError/malformedDatabase(_:)`` naming what is out of place.
    package init(bytes: [UInt8]) throws(DconfError) {
        guard bytes.count >= 24, Array(bytes[0..<8]) == Array("GVariant".utf8) else {
            throw .malformedDatabase("no GVDB signature (a byte-swapped or foreign file)")
        }
        func u32(_ offset: Int) throws(DconfError) -> UInt32 {
            guard offset >= 0, offset + 4 <= bytes.count else {
                throw .malformedDatabase("offset \(offset) is past the end")
            }
            return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        let rootStart = Int(try u32(16))
        let rootEnd = Int(try u32(20))
        guard rootStart <= rootEnd, rootEnd <= bytes.count, rootEnd - rootStart >= 8 else {
            throw .malformedDatabase("the root table's bounds are invalid")
        }
        let bloomWords = Int(try u32(rootStart) & ((1 << 27) - 1))
        let buckets = Int(try u32(rootStart + 4))
        let itemsStart = rootStart + 8 + 4 * bloomWords + 4 * buckets
        guard itemsStart <= rootEnd, (rootEnd - itemsStart) % 24 == 0 else {
            throw .malformedDatabase("the root table's items do not fill it")
        }
        let count = (rootEnd - itemsStart) / 24
        struct Item {
            var parent: UInt32
            var key: [UInt8]
            var type: UInt8
            var start: Int
            var end: Int
        }
        var items: [Item] = []
        items.reserveCapacity(count)
        for index in 0..<count {
            let base = itemsStart + 24 * index
            let keyStart = Int(try u32(base + 8))
            let keySize = Int(bytes[base + 12]) | Int(bytes[base + 13]) << 8
            guard keyStart + keySize <= bytes.count else {
                throw .malformedDatabase("item \(index)'s key is past the end")
            }
            items.append(
                Item(
                    parent: try u32(base + 4), key: Array(bytes[keyStart..<keyStart + keySize]), type: bytes[base + 14],
                    start: Int(try u32(base + 16)), end: Int(try u32(base + 20))))
        }
        var values: [String: [UInt8]] = [:]
        for item in items where item.type == UInt8(ascii: "v") {
            var key = item.key
            var parent = item.parent
            var steps = 0
            while parent != 0xFFFF_FFFF {
                guard Int(parent) < items.count, steps < count else {
                    throw .malformedDatabase("a parent chain is broken or loops")
                }
                key = items[Int(parent)].key + key
                parent = items[Int(parent)].parent
                steps += 1
            }
            guard item.start <= item.end, item.end <= bytes.count else {
                throw .malformedDatabase("the value of \(String(decoding: key, as: UTF8.self)) is past the end")
            }
            values[String(decoding: key, as: UTF8.self)] = Array(bytes[item.start..<item.end])
        }
        self.values = values
    }

    /// The value of `key`, decoded.
    package func value(_ key: String) -> DconfValue {
        guard let serialized = values[key] else { return .unset }
        return DconfValue(serializedVariant: serialized)
    }
}
