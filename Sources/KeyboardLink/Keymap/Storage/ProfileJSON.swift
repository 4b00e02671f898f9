import KeyboardLinkSupport

/// The JSON settings shared by profiles, drafts and layouts: sorted keys and indentation for files people read
/// and diff, and short descriptions of decoding errors.
enum ProfileJSON {
    /// Encodes a value as pretty, key-sorted JSON followed by a newline.
    static func encode(_ value: some Encodable) -> [UInt8] {
        // Our document types hold only strings, numbers, arrays and dictionaries: encoding cannot fail.
        guard let data = try? JSONCodec.encode(value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return Array("{}\n".utf8) }
        return data + [0x0A]
    }
}

extension ProfileJSON {
    private struct SchemaProbe: Decodable {
        var schemaVersion: Int?
    }

    /// Checks the document's `schemaVersion` before anything else, so that a newer kblink's file is reported as
    /// such instead of as a pile of decoding errors.
    static func checkSchema(_ json: [UInt8]) throws(KeymapError) {
        guard json.count <= FileStore.maximumReadSize else {
            throw .invalidProfile("the document is larger than \(FileStore.maximumReadSize >> 20) MiB")
        }
        let probe = try decode(SchemaProbe.self, from: json)
        guard let version = probe.schemaVersion else { throw .invalidProfile("the document has no schemaVersion") }
        guard version >= 1 else { throw .invalidProfile("schemaVersion \(version) is not valid") }
        guard version <= ProfileDocument.currentSchemaVersion else {
            throw .invalidProfile(
                "schemaVersion \(version) was written by a newer kblink; this one reads version "
                    + "\(ProfileDocument.currentSchemaVersion)")
        }
    }

    /// Decodes JSON, turning any failure into `KeymapError.invalidProfile` with a short reason.
    static func decode<Value: Decodable>(_ type: Value.Type, from json: [UInt8]) throws(KeymapError) -> Value {
        do {
            return try JSONCodec.decode(type, from: json)
        } catch let error as KeymapError {
            throw .invalidProfile(error.description)
        } catch {
            throw .invalidProfile(JSONCodec.describe(error))
        }
    }
}
