import Testing

@testable import KeyboardLinkPresence

@Suite struct PresencePolicyTests {
    @Test(arguments: [
        ("external", PresencePolicy.external), ("any", .any), ("bluetooth", .bluetooth),
        ("  External\n", .external), ("ANY", .any), ("Bluetooth", .bluetooth),
    ])
    func parses(text: String, policy: PresencePolicy) throws {
        #expect(try PresencePolicy(parsing: text) == policy)
    }

    @Test(arguments: ["", "usb", "externals", "all", "blue tooth", "evdev"])
    func refusesOtherValues(text: String) throws {
        let error = try #require(throws: PresencePolicyError.self) { try PresencePolicy(parsing: text) }
        #expect(error.text == text)
        #expect(error.description.contains("use external"))
        #expect(error.description.contains("any"))
        #expect(error.description.contains("bluetooth"))
    }

    @Test func defaultIsExternal() {
        #expect(PresencePolicy.default == .external)
    }

    @Test(arguments: [
        (PresencePolicy.external, InputBus.usb, true), (.external, .bluetooth, true), (.external, .i8042, false),
        (.external, .i2c, false), (.external, .host, false),
        (.any, .usb, true), (.any, .bluetooth, true), (.any, .i8042, true), (.any, .i2c, true),
        (.bluetooth, .usb, false), (.bluetooth, .bluetooth, true), (.bluetooth, .i8042, false),
    ])
    func busesThatCount(policy: PresencePolicy, bus: InputBus, counts: Bool) {
        #expect(policy.counts(bus: bus) == counts)
    }
}
