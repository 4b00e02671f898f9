/// `zmk.keymap.AddLayerErrorCode`: why `addLayer` failed.
package enum StudioAddLayerError: ProtobufEnum, Error, CustomStringConvertible {
    /// 0: no error (never sent as an error in practice).
    case ok
    /// 1: adding failed.
    case generic
    /// 2: every layer the firmware was built with is in use (ZMK answers this for `-ENOSPC`).
    case noSpace
    /// A value this code does not know.
    case unrecognized(Int32)

    package init(protobufValue: Int32) {
        switch protobufValue {
        case 0: self = .ok
        case 1: self = .generic
        case 2: self = .noSpace
        default: self = .unrecognized(protobufValue)
        }
    }

    package var protobufValue: Int32 {
        switch self {
        case .ok: 0
        case .generic: 1
        case .noSpace: 2
        case .unrecognized(let value): value
        }
    }

    package var description: String {
        switch self {
        case .ok: "the keyboard reported an add-layer error without a reason"
        case .generic: "the keyboard could not add a layer"
        case .noSpace: "the keyboard's firmware has no more layers to add"
        case .unrecognized(let value): "the keyboard reported unknown add-layer error \(value)"
        }
    }
}
