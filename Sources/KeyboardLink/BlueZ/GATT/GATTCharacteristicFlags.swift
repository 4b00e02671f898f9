/// What a characteristic allows, from BlueZ's `GattCharacteristic1.Flags` (`read`, `write`, `notify`, ...).
///
/// Flags kblink does not use are kept in ``unknown`` rather than refused: BlueZ adds flags over time.
public struct GATTCharacteristicFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32

    /// Creates flags from their bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `broadcast`.
    public static let broadcast = GATTCharacteristicFlags(rawValue: 1 << 0)
    /// `read`: `ReadValue` works.
    public static let read = GATTCharacteristicFlags(rawValue: 1 << 1)
    /// `write-without-response`: `WriteValue` with type `command` works.
    public static let writeWithoutResponse = GATTCharacteristicFlags(rawValue: 1 << 2)
    /// `write`: `WriteValue` with type `request` works.
    public static let write = GATTCharacteristicFlags(rawValue: 1 << 3)
    /// `notify`: `StartNotify` delivers notifications.
    public static let notify = GATTCharacteristicFlags(rawValue: 1 << 4)
    /// `indicate`: `StartNotify` delivers indications (acknowledged notifications).
    public static let indicate = GATTCharacteristicFlags(rawValue: 1 << 5)
    /// `authenticated-signed-writes`.
    public static let authenticatedSignedWrites = GATTCharacteristicFlags(rawValue: 1 << 6)
    /// `extended-properties`.
    public static let extendedProperties = GATTCharacteristicFlags(rawValue: 1 << 7)
    /// `reliable-write`: `WriteValue` with type `reliable` works.
    public static let reliableWrite = GATTCharacteristicFlags(rawValue: 1 << 8)
    /// `writable-auxiliaries`.
    public static let writableAuxiliaries = GATTCharacteristicFlags(rawValue: 1 << 9)
    /// `encrypt-read`: reading needs an encrypted (paired) link.
    public static let encryptRead = GATTCharacteristicFlags(rawValue: 1 << 10)
    /// `encrypt-write`: writing needs an encrypted (paired) link.
    public static let encryptWrite = GATTCharacteristicFlags(rawValue: 1 << 11)
    /// `encrypt-notify`.
    public static let encryptNotify = GATTCharacteristicFlags(rawValue: 1 << 12)
    /// `encrypt-indicate`.
    public static let encryptIndicate = GATTCharacteristicFlags(rawValue: 1 << 13)
    /// `encrypt-authenticated-read`.
    public static let encryptAuthenticatedRead = GATTCharacteristicFlags(rawValue: 1 << 14)
    /// `encrypt-authenticated-write`.
    public static let encryptAuthenticatedWrite = GATTCharacteristicFlags(rawValue: 1 << 15)
    /// `secure-read`.
    public static let secureRead = GATTCharacteristicFlags(rawValue: 1 << 16)
    /// `secure-write`.
    public static let secureWrite = GATTCharacteristicFlags(rawValue: 1 << 17)
    /// `authorize`.
    public static let authorize = GATTCharacteristicFlags(rawValue: 1 << 18)

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
    public init(bluezNames: [String]) {
        var flags: GATTCharacteristicFlags = []
        for name in bluezNames {
            if let flag = Self.names.first(where: { $0.0 == name })?.1 { flags.insert(flag) }
        }
        self = flags
    }

    /// BlueZ's names of these flags (what a simulated characteristic serves).
    public var bluezNames: [String] {
        Self.names.filter { contains($0.1) }.map(\.0)
    }

    /// Notifications or indications can be started.
    public var canNotify: Bool { !isDisjoint(with: [.notify, .indicate]) }
}
