/// `zmk.meta.ErrorConditions`: why the keyboard refused a call.
package enum StudioMetaError: ProtobufEnum, Error, CustomStringConvertible {
    /// 0: something failed on the keyboard.
    case generic
    /// 1: the keyboard is locked; the user must press the key bound to `&studio_unlock`.
    case unlockRequired
    /// 2: the firmware does not implement this call.
    case rpcNotFound
    /// 3: the keyboard could not decode the request.
    case messageDecodeFailed
    /// 4: the keyboard could not encode its answer.
    case messageEncodeFailed
    /// A value this code does not know.
    case unrecognized(Int32)

    package init(protobufValue: Int32) {
        switch protobufValue {
        case 0: self = .generic
        case 1: self = .unlockRequired
        case 2: self = .rpcNotFound
        case 3: self = .messageDecodeFailed
        case 4: self = .messageEncodeFailed
        default: self = .unrecognized(protobufValue)
        }
    }

    package var protobufValue: Int32 {
        switch self {
        case .generic: 0
        case .unlockRequired: 1
        case .rpcNotFound: 2
        case .messageDecodeFailed: 3
        case .messageEncodeFailed: 4
        case .unrecognized(let value): value
        }
    }

    package var description: String {
        switch self {
        case .generic:
            "the keyboard reported a generic error; retry, and check its log if it persists"
        case .unlockRequired:
            "the keyboard is locked: press the key bound to &studio_unlock on it, then retry"
        case .rpcNotFound:
            "the keyboard's firmware does not implement this ZMK Studio call; update the firmware"
        case .messageDecodeFailed:
            "the keyboard could not decode the request; its firmware may be older than this client"
        case .messageEncodeFailed:
            "the keyboard could not encode its answer; retry, or update its firmware"
        case .unrecognized(let value):
            "the keyboard reported unknown error \(value); update kblink"
        }
    }
}
