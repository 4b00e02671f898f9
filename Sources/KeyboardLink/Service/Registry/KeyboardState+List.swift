import KBlinkAPI
import KeyboardLinkDBus

/// One keyboard as `org.kblink1.Manager.ListKeyboards` answers it: everything `kblink list` shows, typed, with no
/// variants, so the daemon, dbus-daemon and the client each have far less to marshal, validate and decode than in
/// `GetManagedObjects` (which carries every interface of every object, each value in a variant).
extension KeyboardState {
    /// `(o path, s address, s name, s alias, b paired, b trusted, b connected, a(sy) battery, a{ss} firmware,
    /// s driver)`: the object path and the `org.kblink1.Keyboard` properties in their declared order.
    public static let listEntryType = DBusType.structure([
        .objectPath, .string, .string, .string, .boolean, .boolean, .boolean, .array(.structure([.string, .byte])),
        .dictionary(key: .string, value: .string), .string,
    ])

    /// This keyboard as a `ListKeyboards` entry; the values are those of ``propertyValues``, built directly
    /// (an integration test compares the two answers keyboard by keyboard).
    var listEntry: DBusValue {
        .structure([
            .objectPath(KBlink.keyboardPath(address)),
            .string(address.description),
            .string(name),
            .string(alias),
            .boolean(paired),
            .boolean(trusted),
            .boolean(connected),
            .array(.structure([.string, .byte]), battery.map { .structure([.string($0.part), .byte($0.level)]) }),
            .dictionary(
                key: .string, value: .string,
                firmware.sorted { $0.key < $1.key }.map {
                    DBusDictionaryEntry(key: .string($0.key), value: .string($0.value))
                }),
            .string(driver),
        ])
    }
}
