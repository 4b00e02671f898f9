import KeyboardLinkSupport

extension FirmwareInfo {
    /// The version of the cache file format written by ``cacheData()``.
    package static let cacheFormatVersion = 1

    /// The content of the per-keyboard cache file: JSON with sorted keys, dates in ISO 8601.
    /// The caller writes it atomically (temporary file, then rename).
    /// - Throws: `EncodingError` (not for the values kblink builds: they hold only strings and integers).
    package func cacheData() throws -> [UInt8] {
        try JSONCodec.encode(
            CacheFile(version: Self.cacheFormatVersion, firmware: self), options: [.sortedKeys, .prettyPrinted])
    }

    /// Reads a cache file written by ``cacheData()``.
    /// - Throws: ``FirmwareCacheError`` when the file is not a cache of this format; the caller should discard it
    ///   and refresh from the keyboard.
    package init(cacheData data: [UInt8]) throws(FirmwareCacheError) {
        let header: CacheHeader
        do {
            header = try JSONCodec.decode(CacheHeader.self, from: data)
        } catch {
            throw FirmwareCacheError(reason: "not a kblink firmware cache (\(JSONCodec.describe(error)))")
        }
        guard header.version == Self.cacheFormatVersion else {
            throw FirmwareCacheError(
                reason: "cache format \(header.version) is not \(Self.cacheFormatVersion), the one this kblink reads")
        }
        do {
            self = try JSONCodec.decode(CacheFile.self, from: data).firmware
        } catch {
            throw FirmwareCacheError(reason: "malformed cache (\(JSONCodec.describe(error)))")
        }
    }

    private struct CacheHeader: Decodable {
        var version: Int
    }

    private struct CacheFile: Codable {
        var version: Int
        var firmware: FirmwareInfo
    }
}
