import Testing

@testable import KeyboardLinkFirmware

@Suite struct BatteryPartNamerTests {
    @Test func singleBatteryIsMain() {
        #expect(BatteryPartNamer.names(userDescriptions: [nil]) == ["main"])
    }

    @Test func descriptionsNameTheHalves() {
        #expect(BatteryPartNamer.names(userDescriptions: ["Left", "Right"]) == ["left", "right"])
    }

    @Test func zmkCentralAndProxiedPeripheral() {
        // ZMK: the central's own Battery Level has no description, the proxied one is "Peripheral 0".
        #expect(BatteryPartNamer.names(userDescriptions: [nil, "Peripheral 0"]) == ["main", "peripheral-0"])
    }

    @Test func withoutDescriptionsByPosition() {
        #expect(BatteryPartNamer.names(userDescriptions: [nil, nil, nil]) == ["main", "part2", "part3"])
        #expect(BatteryPartNamer.names(userDescriptions: ["Left", nil]) == ["left", "part2"])
    }

    @Test func duplicatesGetASuffix() {
        #expect(BatteryPartNamer.names(userDescriptions: ["Half", "half", "HALF"]) == ["half", "half-2", "half-3"])
        #expect(BatteryPartNamer.names(userDescriptions: [nil, "Main"]) == ["main", "main-2"])
    }

    @Test(arguments: [
        ("  Left Half ", "left-half"),
        ("Right_Side!", "right-side"),
        ("Ünïcode", "n-code"),
        ("Batterie gauche (côté)", "batterie-gauche-c-t"),
        ("Peripheral #1", "peripheral-1"),
    ])
    func slugs(description: String, expected: String) {
        #expect(BatteryPartNamer.slug(description) == expected)
    }

    @Test func emptyOrSymbolDescriptionFallsBackToPosition() {
        #expect(BatteryPartNamer.names(userDescriptions: ["", "***"]) == ["main", "part2"])
    }

    @Test func longDescriptionsAreCut() {
        let name = BatteryPartNamer.slug(String(repeating: "a", count: 31) + " bcd")
        #expect(name == String(repeating: "a", count: 31))
    }
}
