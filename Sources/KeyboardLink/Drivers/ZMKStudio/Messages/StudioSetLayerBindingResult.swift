/// `zmk.keymap.SetLayerBindingResponse`: the outcome of staging one binding.
package enum StudioSetLayerBindingResult: ProtobufEnum, CustomStringConvertible {
    /// 0: staged.
    case ok
    /// 1: no such layer id or key position.
    case invalidLocation
    /// 2: no behaviour with that id.
    case invalidBehavior
    /// 3: the behaviour refused the parameters.
    case invalidParameters
    /// A value this code does not know.
    case unrecognized(Int32)

    package init(protobufValue: Int32) {
        switch protobufValue {
        case 0: self = .ok
        case 1: self = .invalidLocation
        case 2: self = .invalidBehavior
        case 3: self = .invalidParameters
        default: self = .unrecognized(protobufValue)
        }
    }

    package var protobufValue: Int32 {
        switch self {
        case .ok: 0
        case .invalidLocation: 1
        case .invalidBehavior: 2
        case .invalidParameters: 3
        case .unrecognized(let value): value
        }
    }

    package var description: String {
        switch self {
        case .ok: "binding staged"
        case .invalidLocation: "the keyboard has no such layer or key position; re-read its keymap"
        case .invalidBehavior: "the keyboard has no behaviour with that id; re-read its behaviour list"
        case .invalidParameters: "the behaviour refused the binding's parameters"
        case .unrecognized(let value): "the keyboard answered with unknown binding result \(value)"
        }
    }
}
