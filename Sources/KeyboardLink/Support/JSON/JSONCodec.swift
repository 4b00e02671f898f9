/// kblink's JSON reading and writing for `Codable` types, over the standard library only: profiles, drafts,
/// layouts and the firmware cache. Replaces Foundation's `JSONDecoder`/`JSONEncoder`, which would link
/// FoundationEssentials (several MiB of code) into kblinkd; the text written is the same byte for byte.
package enum JSONCodec {
    /// Reads `type` from JSON text.
    /// - Throws: `DecodingError`: `.dataCorrupted` with a ``JSONSyntaxError`` as underlying error when the text is
    ///   not JSON; otherwise the error of the value that does not fit, with its coding path.
    package static func decode<T: Decodable>(_ type: T.Type, from json: [UInt8]) throws -> T {
        let node: JSONNode
        do {
            node = try JSONParser.parse(json)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The given data was not valid JSON.", underlyingError: error))
        }
        return try JSONNodeDecoder.decode(type, from: node, codingPath: [])
    }

    /// The JSON text of `value`.
    /// - Throws: `EncodingError` for a value JSON cannot hold (an infinite or NaN number).
    package static func encode<T: Encodable>(_ value: T, options: JSONNodeWriter.Options) throws -> [UInt8] {
        JSONNodeWriter.write(try JSONNodeEncoder.encode(value), options: options)
    }
}
