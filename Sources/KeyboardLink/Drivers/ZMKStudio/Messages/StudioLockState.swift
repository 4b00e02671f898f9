/// `zmk.core.LockState`: whether the keyboard accepts secured calls (keymap edits, saving).
package enum StudioLockState: ProtobufEnum, CustomStringConvertible {
    /// 0: only device info, lock state and the behaviour list are available.
    case locked
    /// 1: every call is available.
    case unlocked
    /// A value this code does not know.
    case unrecognized(Int32)

    package init(protobufValue: Int32) {
        switch protobufValue {
        case 0: self = .locked
        case 1: self = .unlocked
        default: self = .unrecognized(protobufValue)
        }
    }

    package var protobufValue: Int32 {
        switch self {
        case .locked: 0
        case .unlocked: 1
        case .unrecognized(let value): value
        }
    }

    package var description: String {
        switch self {
        case .locked: "locked"
        case .unlocked: "unlocked"
        case .unrecognized(let value): "unknown lock state \(value)"
        }
    }
}
