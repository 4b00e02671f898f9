/// What a characteristic allows, from BlueZ's `GattCharacteristic1.Flags` (`read`, `write`, `notify`, ...).
///
/// Flags kblink does not use are kept in ``unknown`` rather than refused: BlueZ adds flags over time.
package struct GATTCharacteristicFlags: OptionSet, Hashable, Sendable {
    package let rawValue: UInt32

    /// Creates flags from their bits.
    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `broadcast`.
    package static let broadcast = GATTCharacteristicFlags(rawValue: 1 << 0)
    /// `read`: `ReadValue` works.
    package static let read = GATTCharacteristicFlags(rawValue: 1 << 1)
    /// `write-without-response`: `WriteValue` with type `command` works.
    package static let writeWithoutResponse = GATTCharacteristicFlags(rawValue: 1 << 2)
    /// `write`: `WriteValue` with type `request` works.
    package static let write = GATTCharacteristicFlags(rawValue: 1 << 3)
    /// `notify`: `StartNotify` delivers notifications.
    package static let notify = GATTCharacteristicFlags(rawValue: 1 << 4)
    /// `indicate`: `StartNotify` delivers indications (acknowledged notifications).
    package static let indicate = GATTCharacteristicFlags(rawValue: 1 << 5)
    /// `authenticated-signed-writes`.
    package static let authenticatedSignedWrites = GATTCharacteristicFlags(rawValue: 1 << 6)
    /// `extended-properties`.
    package static let extendedProperties = GATTCharacteristicFlags(rawValue: 1 << 7)
    /// `reliable-write`: `WriteValue` with type `reliable` works.
    package static let reliableWrite = GATTCharacteristicFlags(rawValue: 1 << 8)
    /// `writable-auxiliaries`.
    package static let writableAuxiliaries = GATTCharacteristicFlags(rawValue: 1 << 9)
    /// `encrypt-read`: reading needs an encrypted (paired) link.
    package static let encryptRead = GATTCharacteristicFlags(rawValue: 1 << 10)
    /// `encrypt-write`: writing needs an encrypted (paired) link.
    package static let encryptWrite = GATTCharacteristicFlags(rawValue: 1 << 11)
    /// `encrypt-notify`.
    package static let encryptNotify = GATTCharacteristicFlags(rawValue: 1 << 12)
    /// `encrypt-indicate`.
    package static let encryptIndicate = GATTCharacteristicFlags(rawValue: 1 << 13)
    /// `encrypt-authenticated-read`.
    package static let encryptAuthenticatedRead = GATTCharacteristicFlags(rawValue: 1 << 14)
    /// `encrypt-authenticated-write`.
    package static let encryptAuthenticatedWrite = GATTCharacteristicFlags(rawValue: 1 << 15)
    /// `secure-read`.
    package static let secureRead = GATTCharacteristicFlags(rawValue: 1 << 16)
    /// `secure-write`.
    package static let secureWrite = GATTCharacteristicFlags(rawValue: 1 << 17)
    /// `authorize`.
    package static let authorize = GATTCharacteristicFlags(rawValue: 1 << 18)

    /// BlueZ's flag names, in the order of its documentation.
    static let names: [(String, GATTCharacteristicFlags)] = [
        ("broadcast", .broadcast), ("read", .read), ("write-without-response", .writeWithoutResponse),
        ("write", .write), ("notify", .notify), ("indicate", .indicate),
        ("authenticated-signed-writes", .authenticatedSignedWrites), ("extended-properties", .extendedProperties),
        ("reliable-write", .reliableWrite), ("writable-auxiliaries", .writableAuxiliaries),
        ("encrypt-read", .encryptRead), ("encrypt-write", .encryptWrite), ("encrypt-notify", .encryptNotify),
        ("encrypt-indicate", .encryptIndicate), ("encrypt-authenticated-read", .encryptAuthenticatedRead),
        ("encrypt-authenticated-write", .encryptAuthenticatedWrite), ("secure-read", .secureRead),
        ("secure-write", .secureWrite), ("authorize", .authorize),
    ]

    /// Reads BlueZ's flag names; names it does not know are ignored.
    package init(bluezNames: [String]) {
        var flags: GATTCharacteristicFlags = []
        for name in bluezNames {
            if let flag = Self.names.first(where: { $0.0 == name })?.1 { flags.insert(flag) }
        }
        self = flags
    }

    /// BlueZ's names of these flags (what a simulated characteristic serves).
    package var bluezNames: [String] {
        Self.names.filter { contains($0.1) }.map(\.0)
    }

    /// Notifications or indications can be started.
    package var canNotify: Bool { !isDisjoint(with: [.notify, .indicate]) }
}
