import KeyboardLinkDBus

/// One call BlueZ makes to our `org.bluez.Agent1`, with validated arguments.
package enum AgentRequest: Sendable, Equatable {
    /// BlueZ unregistered the agent.
    case release
    /// A legacy keyboard wants a PIN; we answer it and show it.
    case requestPinCode(device: ObjectPath)
    /// BlueZ chose a PIN to show.
    case displayPinCode(device: ObjectPath, pin: PinCode)
    /// BlueZ wants a passkey typed on the host (we have no keyboard to type on).
    case requestPasskey(device: ObjectPath)
    /// Show a passkey; called again as each digit is typed on the keyboard.
    case displayPasskey(device: ObjectPath, passkey: Passkey, entered: UInt16)
    /// Confirm that both sides show the same passkey.
    case requestConfirmation(device: ObjectPath, passkey: Passkey)
    /// Allow a just-works pairing.
    case requestAuthorization(device: ObjectPath)
    /// Allow a device to use a profile (`uuid`) before it is trusted.
    case authorizeService(device: ObjectPath, uuid: String)
    /// BlueZ gave up on the request it made last.
    case cancel

    /// Every member of `org.bluez.Agent1` with its input signature.
    package static let members: [(name: String, inputs: [DBusArgument], outputs: [DBusArgument])] = [
        ("Release", [], []),
        ("RequestPinCode", [DBusArgument("device", .objectPath)], [DBusArgument("pincode", .string)]),
        ("DisplayPinCode", [DBusArgument("device", .objectPath), DBusArgument("pincode", .string)], []),
        ("RequestPasskey", [DBusArgument("device", .objectPath)], [DBusArgument("passkey", .uint32)]),
        (
            "DisplayPasskey",
            [DBusArgument("device", .objectPath), DBusArgument("passkey", .uint32), DBusArgument("entered", .uint16)],
            []
        ),
        ("RequestConfirmation", [DBusArgument("device", .objectPath), DBusArgument("passkey", .uint32)], []),
        ("RequestAuthorization", [DBusArgument("device", .objectPath)], []),
        ("AuthorizeService", [DBusArgument("device", .objectPath), DBusArgument("uuid", .string)], []),
        ("Cancel", [], []),
    ]

    /// Reads a request from a member name and its arguments (already checked against the declared signature).
    /// - Throws: ``AgentArgumentError`` for an unknown member or an argument out of range.
    package init(member: String, arguments: [DBusValue]) throws(AgentArgumentError) {
        func path(_ index: Int) throws(AgentArgumentError) -> ObjectPath {
            guard index < arguments.count, case .objectPath(let path) = arguments[index] else {
                throw AgentArgumentError("\(member): argument \(index + 1) must be an object path")
            }
            return path
        }
        func uint32(_ index: Int) throws(AgentArgumentError) -> UInt32 {
            guard index < arguments.count, case .uint32(let value) = arguments[index] else {
                throw AgentArgumentError("\(member): argument \(index + 1) must be a uint32")
            }
            return value
        }
        func string(_ index: Int) throws(AgentArgumentError) -> String {
            guard index < arguments.count, case .string(let value) = arguments[index] else {
                throw AgentArgumentError("\(member): argument \(index + 1) must be a string")
            }
            return value
        }
        switch member {
        case "Release": self = .release
        case "Cancel": self = .cancel
        case "RequestPinCode": self = .requestPinCode(device: try path(0))
        case "DisplayPinCode": self = .displayPinCode(device: try path(0), pin: try PinCode(try string(1)))
        case "RequestPasskey": self = .requestPasskey(device: try path(0))
        case "DisplayPasskey":
            guard arguments.count == 3, case .uint16(let entered) = arguments[2] else {
                throw AgentArgumentError("DisplayPasskey: argument 3 must be a uint16")
            }
            self = .displayPasskey(device: try path(0), passkey: try Passkey(try uint32(1)), entered: entered)
        case "RequestConfirmation":
            self = .requestConfirmation(device: try path(0), passkey: try Passkey(try uint32(1)))
        case "RequestAuthorization": self = .requestAuthorization(device: try path(0))
        case "AuthorizeService": self = .authorizeService(device: try path(0), uuid: try string(1))
        default: throw AgentArgumentError("org.bluez.Agent1 has no member \(member)")
        }
    }

    /// The device the request is about; nil for `Release` and `Cancel`.
    package var device: ObjectPath? {
        switch self {
        case .release, .cancel: nil
        case .requestPinCode(let device), .displayPinCode(let device, _), .requestPasskey(let device),
            .displayPasskey(let device, _, _), .requestConfirmation(let device, _), .requestAuthorization(let device),
            .authorizeService(let device, _):
            device
        }
    }
}
