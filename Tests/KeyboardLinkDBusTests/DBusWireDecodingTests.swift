import Testing

@testable import KeyboardLinkDBus

/// Typed decoding straight from a message's wire bytes (``DBusRepresentable/init(dbusWire:)``), checked against the
/// values that were encoded and against the dynamic ``DBusValue`` path. No bus: libdbus marshals the message and
/// validates it again when it is read back (`Message(marshalled:)`), as it does with every message it receives.
@Suite("Typed decoding from wire bytes")
struct DBusWireDecodingTests {
    /// One typed value: encodes it, reads it back both ways, and says what came back.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let check: @Sendable () throws -> [String]

        /// A round trip of `value` as the message's only argument; returns the failures found.
        static func roundTrip<T: DBusRepresentable & Equatable>(_ value: T) -> Case {
            Case(testDescription: T.dbusType.signature) {
                let received = try Message(marshalled: try DBusWireDecodingTests.signal([value.dbusValue]).marshalled())
                var failures: [String] = []
                guard case .wire = received.storage else { return ["the body was decoded eagerly"] }
                if try received.decode(T.self) != value { failures.append("decode(T.self) differs") }
                // Three arguments take the variadic (parameter pack) path.
                let three = try Message(
                    marshalled: try DBusWireDecodingTests.signal([value.dbusValue, .byte(1), value.dbusValue])
                        .marshalled())
                let (first, middle, last) = try three.decode(T.self, UInt8.self, T.self)
                if first != value || middle != 1 || last != value { failures.append("the variadic decode differs") }
                if received.body != [value.dbusValue] { failures.append("body differs from dbusValue") }
                if received.signature.rawValue != T.dbusType.signature { failures.append("the signature differs") }
                return failures
            }
        }
    }

    static func signal(_ body: [DBusValue]) throws -> Message {
        var message = Message.signal(
            path: ObjectPath("/com/example/wire"), interface: InterfaceName("com.example.Wire"),
            member: MemberName("Values"), body: body)
        message.serial = 7
        return message
    }

    static let cases: [Case] = [
        .roundTrip(UInt8(200)), .roundTrip(true), .roundTrip(false), .roundTrip(Int16.min), .roundTrip(UInt16.max),
        .roundTrip(Int32(-123_456)), .roundTrip(UInt32.max), .roundTrip(Int64.min), .roundTrip(UInt64.max),
        .roundTrip(-2.5), .roundTrip(""), .roundTrip("héllo ✓ 🎹"), .roundTrip(String(repeating: "k", count: 5_000)),
        .roundTrip(ObjectPath("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF")),
        .roundTrip(try! Signature("a{oa{sa{sv}}}")),
        .roundTrip(DBusValue.array(.string, [.string("a"), .string("b")])),
        .roundTrip([UInt8](0...255)), .roundTrip([String]()), .roundTrip([Int64]()),
        .roundTrip([[Int32]]([[1, 2], [], [3]])),
        .roundTrip(["left": UInt8(80), "right": 55]), .roundTrip([UInt32: String]()),
        .roundTrip([Int64(1): [Double(0.5), 1.5]]),
        .roundTrip(["Name": DBusValue.string("Aula"), "RSSI": .int16(-60), "Paired": .boolean(true)]),
        .roundTrip([ObjectPath("/a"): ["org.bluez.Device1": ["Class": DBusValue.uint32(0x2540)]]]),
        .roundTrip([DBusValue.variant(.uint32(7)), .structure([.byte(1), .double(2)])]),
    ]

    @Test("a typed value decodes from the wire to what was encoded", arguments: DBusWireDecodingTests.cases)
    func typedRoundTrip(_ sample: Case) throws {
        #expect(try sample.check() == [])
    }

    @Test("structs, and arrays of structs, honour the 8-byte alignment")
    func structs() throws {
        let rows: [DBusStruct<String, UInt8, Int64>] = [DBusStruct("a", 1, -1), DBusStruct("bcd", 2, .max)]
        let single = DBusStruct<UInt8, Double>(3, 0.25)
        let received = try Message(
            marshalled: try Self.signal([.byte(9), rows.dbusValue, single.dbusValue]).marshalled())
        #expect(received.signature.rawValue == "ya(syx)(yd)")
        let (byte, decodedRows, decodedSingle) = try received.decode(
            UInt8.self, [DBusStruct<String, UInt8, Int64>].self, DBusStruct<UInt8, Double>.self)
        #expect(byte == 9)
        #expect(decodedRows.map(\.fields.0) == ["a", "bcd"])
        #expect(decodedRows.map(\.fields.2) == [-1, .max])
        #expect(decodedSingle.fields.0 == 3 && decodedSingle.fields.1 == 0.25)
    }

    @Test("a BlueZ-like GetManagedObjects body decodes typed exactly as through DBusValue")
    func managedObjects() throws {
        var devices: [ObjectPath: [String: [String: DBusValue]]] = [:]
        for index in 0..<20 {
            devices[try ObjectPath("/org/bluez/hci0/dev_\(index)")] = [
                "org.bluez.Device1": [
                    "Address": .string("AA:BB:CC:DD:EE:\(index)"), "Class": .uint32(0x2540), "RSSI": .int16(-60),
                    "UUIDs": .array(.string, [.string("00001124-0000-1000-8000-00805f9b34fb")]),
                    "ManufacturerData": .dictionary(
                        key: .uint16, value: .variant,
                        [DBusDictionaryEntry(key: .uint16(76), value: .variant(.array(.byte, [.byte(1), .byte(2)])))]),
                ],
                "org.freedesktop.DBus.Properties": [:],
            ]
        }
        let received = try Message(marshalled: try Self.signal([devices.dbusValue]).marshalled())
        let typed = try received.decode([ObjectPath: [String: [String: DBusValue]]].self)
        let viaValues = try [ObjectPath: [String: [String: DBusValue]]](dbusValue: received.body[0])
        #expect(typed == devices)
        #expect(viaValues == devices)
    }

    @Test(
        "decoding as other types throws, with both signatures in the message",
        arguments: ["s", "u", "as", "a{sv}", "(ii)", "ii"])
    func mismatchThrows(_ wanted: String) throws {
        let received = try Message(marshalled: try Self.signal([.int32(1), .int32(2)]).marshalled())
        let error = #expect(throws: DBusError.self) {
            switch wanted {
            case "s": _ = try received.decode(String.self)
            case "u": _ = try received.decode(UInt32.self)
            case "as": _ = try received.decode([String].self)
            case "a{sv}": _ = try received.decode([String: DBusValue].self)
            case "(ii)": _ = try received.decode(DBusStruct<Int32, Int32>.self)
            default: _ = try received.decode(Int32.self, UInt32.self)
            }
        }
        #expect(error?.name == .invalidArgs)
        #expect(error?.message.contains("got 'ii'") == true)
        let (a, b) = try received.decode(Int32.self, Int32.self)
        #expect(a == 1 && b == 2)
    }

    @Test("a body decodes to at most its value budget of dynamic values; one more is LimitsExceeded")
    func valueBudget() throws {
        // An `av` of v(y): the array, then each variant counts one.
        let budget = 10_000
        func body(elements: Int) throws -> WireBody {
            let received = try Message(
                marshalled: try Self.signal([.array(.variant, Array(repeating: .variant(.byte(1)), count: elements))])
                    .marshalled())
            guard case .wire(let wire) = received.storage else { throw DBusError.failed("no wire form") }
            return try wire.bytes { bytes in
                let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 8)
                copy.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                return try WireBody(
                    taking: copy, count: bytes.count, free: { $0.deallocate() }, signature: wire.signature,
                    valueBudget: budget)
            }
        }
        #expect(try body(elements: budget - 1).decodeValues().first?.arrayValue?.count == budget - 1)
        #expect { try body(elements: budget).decodeValues() } throws: { ($0 as? DBusError)?.name == .limitsExceeded }
    }

    @Test("a message built in Swift still decodes typed from its values")
    func valuesStorage() throws {
        let local = try Self.signal([.string("kb"), .uint32(3)])
        let (text, number) = try local.decode(String.self, UInt32.self)
        #expect(text == "kb" && number == 3)
        #expect(throws: DBusError.self) { try local.decode(String.self) }
    }

    @Test("setting the body of a received message replaces its wire form")
    func settingBody() throws {
        var received = try Message(marshalled: try Self.signal([.string("old")]).marshalled())
        received.body = [.uint32(5)]
        #expect(received.signature.rawValue == "u")
        #expect(try received.decode(UInt32.self) == 5)
    }

    @Test("a big-endian message decodes typed and dynamically")
    func bigEndian() throws {
        // A method return with reply serial 1 and body (i s), written by hand in big-endian order.
        var bytes: [UInt8] = [UInt8(ascii: "B"), 2, 0, 1]
        let body: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFE, 0, 0, 0, 2, UInt8(ascii: "k"), UInt8(ascii: "b"), 0]
        bytes += [0, 0, 0, UInt8(body.count)]  // body length
        bytes += [0, 0, 0, 9]  // serial
        // Header fields: REPLY_SERIAL (5) 'u' 1, then SIGNATURE (8) 'g' "is".
        let fields: [UInt8] = [
            5, 1, UInt8(ascii: "u"), 0, 0, 0, 0, 1, 8, 1, UInt8(ascii: "g"), 0, 2,
            UInt8(ascii: "i"), UInt8(ascii: "s"), 0,
        ]
        bytes += [0, 0, 0, UInt8(fields.count)] + fields
        while bytes.count % 8 != 0 { bytes.append(0) }
        bytes += body
        let received = try Message(marshalled: bytes)
        #expect(received.kind == .methodReturn)
        let (number, text) = try received.decode(Int32.self, String.self)
        #expect(number == -2)
        #expect(text == "kb")
        #expect(received.body == [.int32(-2), .string("kb")])
    }
}
