import FoundationEssentials

extension FirmwareInfo {
    /// The version of the cache file format written by ``cacheData()``.
    public static let cacheFormatVersion = 1

    /// The content of the per-keyboard cache file: JSON with sorted keys, dates in ISO 8601.
    /// The caller writes it atomically (temporary file, then rename).
    public func cacheData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(CacheFile(version: Self.cacheFormatVersion, firmware: self))
    }

    /// Reads a cache file written by ``cacheData()``.
    /// - Throws: ``FirmwareCacheError`` when the file is not a cache of this format; the caller should discard it
    ///   and refresh from the keyboard.
    public init(cacheData data: Data) throws(FirmwareCacheError) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let header: CacheHeader
        do {
            header = try decoder.decode(CacheHeader.self, from: data)
        } catch {
            throw FirmwareCacheError(reason: "not a kblink firmware cache (\(error))")
        }
        guard header.version == Self.cacheFormatVersion else {
            throw FirmwareCacheError(
                reason: "cache format \(header.version) is not \(Self.cacheFormatVersion), the one this kblink reads")
        }
        do {
            self = try decoder.decode(CacheFile.self, from: data).firmware
        } catch {
            throw FirmwareCacheError(reason: "malformed cache (\(error))")
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
