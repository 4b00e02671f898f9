import KeyboardLink
import Testing

/// `ResolveInsets` does bounded work: at most 256 fields, at most 64 KiB of request, refused with a clear error
/// before the work starts (the 100,000-field request that once took 22 s).
@Suite("ResolveInsets refuses requests beyond its bounds")
struct ResolveInsetsBoundsTests {
    static func request(fields count: Int) -> DBusValue {
        let fields = (0..<count).map { index in
            DBusDictionaryEntry(
                key: .string("f\(index)"),
                value: .variant(.array(.double, [.double(0), .double(Double(index)), .double(10), .double(10)])))
        }
        return .dictionary(
            key: .string, value: .variant,
            [
                DictionaryEntryMaker.entry("screen", .array(.double, [.double(1024), .double(1366)])),
                DictionaryEntryMaker.entry("fields", .dictionary(key: .string, value: .variant, fields)),
            ])
    }

    func resolve(_ connection: BusConnection, _ request: DBusValue) async throws -> Message {
        try await connection.call(
            destination: KBlink.service, path: KBlink.managerPath, interface: KBlink.managerInterface,
            member: MemberName("ResolveInsets"), [request])
    }

    @Test("256 fields are answered; 257 are refused naming the limit; 100,000 are refused for their size")
    func bounds() async throws {
        try await withDaemon { harness in
            let connection = try await harness.bus.connect()
            _ = try await resolve(connection, Self.request(fields: 256))
            await #expect {
                try await resolve(connection, Self.request(fields: 257))
            } throws: { error in
                guard let error = error as? DBusError else { return false }
                return error.name.rawValue == "org.kblink1.Error.InvalidArgs"
                    && error.message.contains("257 fields") && error.message.contains("at most 256")
            }
            await #expect {
                try await resolve(connection, Self.request(fields: 100_000))
            } throws: { error in
                guard let error = error as? DBusError else { return false }
                // Refused from its length, before any of it is decoded (KBlink.callLimits).
                return error.name == .limitsExceeded && error.message.contains("at most 65536")
            }
            // The daemon goes on answering.
            _ = try await resolve(connection, Self.request(fields: 1))
        }
    }
}
