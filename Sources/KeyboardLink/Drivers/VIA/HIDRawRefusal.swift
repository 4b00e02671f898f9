import KeyboardLinkBlueZ

/// Why kblinkd will not use a hidraw node as a keyboard's VIA link.
package enum HIDRawRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// More than one VIA node matches the keyboard: another device claims its identity, and kblinkd does not guess
    /// which node is the keyboard.
    case ambiguous(keyboard: BluetoothHIDKeyboard, nodes: [String])
    /// The node's `dev` file in sysfs is missing or malformed, so what opening it gives could not be checked.
    case unverifiable(path: String)
    /// Opening `path` gave something other than the character device sysfs named (`found` says what): the node
    /// was replaced between discovery and `open()`.
    case substituted(path: String, expected: HIDRawNode.DeviceNumber, found: String)

    package var description: String {
        switch self {
        case let .ambiguous(keyboard, nodes):
            return "\(nodes.count) hidraw nodes (\(nodes.joined(separator: ", "))) match the keyboard "
                + "\(keyboard); another device claims its identity, so none is used: disconnect the other device "
                + "and retry"
        case .unverifiable(let path):
            return "\(path) has no readable device number in sysfs; not opening it"
        case let .substituted(path, expected, found):
            return "\(path) is not the hidraw node sysfs names (character device \(expected), opened \(found)); "
                + "closed without writing"
        }
    }
}
