import KeyboardLinkDBus
import Testing

@testable import KeyboardLinkBlueZ

/// `SetDiscoveryFilter`'s argument built from a typed filter: BlueZ's key names, the value types it checks, and only
/// the keys that are set.
@Suite struct DiscoveryFilterTests {
    @Test func keyboardsLookForHIDAndHOGPOnBothRadios() {
        #expect(
            DiscoveryFilter.keyboards.dbusValue
                == .dictionary(
                    key: .string, value: .variant,
                    [
                        DBusDictionaryEntry(
                            key: .string("UUIDs"),
                            value: .variant(
                                .array(
                                    .string,
                                    [
                                        .string("00001124-0000-1000-8000-00805f9b34fb"),
                                        .string("00001812-0000-1000-8000-00805f9b34fb"),
                                    ]))),
                        DBusDictionaryEntry(key: .string("Transport"), value: .variant(.string("auto"))),
                    ]))
    }

    @Test func everyKeySetTravelsWithBlueZsType() {
        let filter = DiscoveryFilter(transport: .le, rssi: -70, duplicateData: false)
        #expect(
            filter.dbusValue
                == .dictionary(
                    key: .string, value: .variant,
                    [
                        DBusDictionaryEntry(key: .string("Transport"), value: .variant(.string("le"))),
                        DBusDictionaryEntry(key: .string("RSSI"), value: .variant(.int16(-70))),
                        DBusDictionaryEntry(key: .string("DuplicateData"), value: .variant(.boolean(false))),
                    ]))
    }
}
