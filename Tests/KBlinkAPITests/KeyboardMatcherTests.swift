import KeyboardLinkBlueZ
import Testing

@testable import KBlinkAPI

/// The one rule for a `device` argument, used by kblinkd and kblink.
@Suite("KeyboardMatcher")
struct KeyboardMatcherTests {
    struct Keyboard: Equatable {
        var address: String
        var alias: String
        var name: String
        var paired = true
    }

    static let keyboards = [
        Keyboard(address: "C8:7F:54:0A:1B:2C", alias: "Aula F87", name: "AULA-F87"),
        Keyboard(address: "F8:70:22:00:00:02", alias: "VGN 98Pro", name: "VGN98"),
        Keyboard(address: "DC:2C:26:00:00:03", alias: "Keychron K3", name: "K3"),
        Keyboard(address: "DC:2C:26:00:00:04", alias: "Keychron K3 Pro", name: "K3 Pro"),
    ]
    static let matcher = KeyboardMatcher<Keyboard>(
        address: { BluetoothAddress(validating: $0.address) }, alias: \.alias, name: \.name, paired: \.paired)

    @Test(
        "an address, an exact alias, or a unique prefix of an alias or name",
        arguments: [
            ("c8:7f:54:0a:1b:2c", "Aula F87"), ("aula", "Aula F87"), ("VGN98", "VGN 98Pro"),
            ("keychron k3", "Keychron K3"), ("keychron k3 p", "Keychron K3 Pro"),
        ])
    func matches(text: String, alias: String) throws {
        #expect(try Self.matcher.match(text, in: Self.keyboards).alias == alias)
    }

    @Test("an unknown address, an unknown name, an empty text and an ambiguous prefix are refused")
    func refusals() {
        #expect {
            try Self.matcher.match("00:11:22:33:44:55", in: Self.keyboards)
        } throws: { error in
            guard case .unknownAddress(let address) = error as? KeyboardMatcher<Keyboard>.Failure else { return false }
            return address.description == "00:11:22:33:44:55"
        }
        #expect {
            try Self.matcher.match("logi", in: Self.keyboards)
        } throws: { error in
            if case .unknownName("logi") = error as? KeyboardMatcher<Keyboard>.Failure { return true }
            return false
        }
        #expect {
            try Self.matcher.match("", in: Self.keyboards)
        } throws: { error in
            if case .empty = error as? KeyboardMatcher<Keyboard>.Failure { return true }
            return false
        }
        #expect {
            try Self.matcher.match("keych", in: Self.keyboards)
        } throws: { error in
            guard case .ambiguous(_, let found) = error as? KeyboardMatcher<Keyboard>.Failure else { return false }
            return found.map(\.alias) == ["Keychron K3", "Keychron K3 Pro"]
        }
    }

    @Test("an exact name of an unpaired keyboard that starts other keyboards' names is asked, with every address")
    func unpairedExactIsAsked() throws {
        var keyboards = Self.keyboards
        // A neighbour's keyboard, in range and unpaired, named like the start of the user's.
        keyboards.append(Keyboard(address: "66:55:44:33:22:11", alias: "VGN", name: "VGN", paired: false))
        #expect {
            try Self.matcher.match("vgn", in: keyboards)
        } throws: { error in
            guard case .unpairedExact(_, let found) = error as? KeyboardMatcher<Keyboard>.Failure else { return false }
            return found.map(\.address) == ["66:55:44:33:22:11", "F8:70:22:00:00:02"]
        }
        // Paired, the exact name designates it; alone with its name, an unpaired one is designated too.
        keyboards[keyboards.count - 1].paired = true
        #expect(try Self.matcher.match("vgn", in: keyboards).address == "66:55:44:33:22:11")
        let lone = Keyboard(address: "66:55:44:33:22:11", alias: "Logi K380", name: "K380", paired: false)
        #expect(try Self.matcher.match("logi k380", in: Self.keyboards + [lone]) == lone)
        // The unpaired keyboard's own over-the-air name starting with it does not count as another keyboard.
        let same = Keyboard(address: "66:55:44:33:22:11", alias: "Keychron", name: "Keychron K3", paired: false)
        #expect {
            try Self.matcher.match("keychron", in: Self.keyboards + [same])
        } throws: { error in
            guard case .unpairedExact(_, let found) = error as? KeyboardMatcher<Keyboard>.Failure else { return false }
            return found.count == 3
        }
    }
}
