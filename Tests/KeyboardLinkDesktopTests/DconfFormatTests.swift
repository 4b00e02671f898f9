import KeyboardLinkSupport
import Testing

@testable import KeyboardLinkDesktop

/// The dconf formats the agent speaks without GLib: the `a{smv}` changeset `Change` takes, and the GVDB database.
@Suite struct DconfFormatTests {
    static let key = "/org/gnome/desktop/a11y/applications/screen-keyboard-enabled"

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// The key in hex, as GLib serializes it.
    static let keyHex = Array(key.utf8).map { String($0, radix: 16) }.joined()

    /// Vectors from GLib 2.74 (`GLib.Variant('a{smv}', {key: value}).get_data_as_bytes()` in python3-gi): the key and
    /// its zero, padding to 8, the maybe-variant, the entry's framing offset 0x3d (61), the array's (0x45 or 0x41).
    static let vectors: [(Bool?, String)] = [
        (true, "000000" + "01006200" + "3d" + "45"),
        (false, "000000" + "00006200" + "3d" + "45"),
        (nil, "000000" + "3d" + "41"),
    ]

    @Test(arguments: vectors)
    func changesetIsWhatGLibSerializes(value: Bool?, tail: String) throws {
        let change = try DconfChangeset(key: Self.key, value: value)
        #expect(change.serialized == Self.hex(Self.keyHex + "00" + tail))
    }

    @Test(arguments: ["", "relative/key", "/dir/", "/a//b", "/a\u{0}b"])
    func badKeysAreRefused(key: String) {
        #expect(throws: DconfError.self) { try DconfChangeset(key: key, value: true) }
    }

    @Test func variantValues() {
        #expect(DconfValue(serializedVariant: [1, 0, UInt8(ascii: "b")]) == .boolean(true))
        #expect(DconfValue(serializedVariant: [0, 0, UInt8(ascii: "b")]) == .boolean(false))
        #expect(DconfValue(serializedVariant: Array("hi".utf8) + [0, 0, UInt8(ascii: "s")]) == .other(type: "s"))
        #expect(DconfValue(serializedVariant: []) == .other(type: "?"))
        #expect(DconfValue.unset.effective(default: false) == false)
        #expect(DconfValue.other(type: "s").effective(default: false) == nil)
    }

    @Test func malformedDatabasesAreErrorsNotCrashes() {
        let header = Array("GVariant".utf8) + [UInt8](repeating: 0, count: 8)
        for bytes in [
            [UInt8](), Array("GVariantX".utf8), header + [0xFF, 0xFF, 0, 0, 0, 0, 0, 0],
            header + [24, 0, 0, 0, 40, 0, 0, 0] + [0, 0, 0, 0, 1, 0, 0, 0],
        ] {
            #expect(throws: DconfError.self) { try GVDBTable(bytes: bytes) }
        }
    }

    @Test func stateRoundTrips() throws {
        let state = OSKAgentState(applied: true, previousScreenKeyboard: .boolean(true))
        let bytes = try JSONCodec.encode(state, options: [.sortedKeys])
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"applied":true,"previousScreenKeyboard":"true"}"#)
        #expect(try JSONCodec.decode(OSKAgentState.self, from: bytes) == state)
    }
}
