/// `zmk.keymap.SaveChangesErrorCode`: why `saveChanges` failed.
package enum StudioSaveChangesError: ProtobufEnum, Error, CustomStringConvertible {
    /// 0: no error (never sent as an error in practice).
    case ok
    /// 1: saving failed.
    case generic
    /// 2: the firmware cannot persist changes.
    case notSupported
    /// 3: the settings storage is full.
    case noSpace
    /// A value this code does not know.
    case unrecognized(Int32)

    package init(protobufValue: Int32) {
        switch protobufValue {
        case 0: self = .ok
        case 1: self = .generic
        case 2: self = .notSupported
        case 3: self = .noSpace
        default: self = .unrecognized(protobufValue)
        }
    }

    package var protobufValue: Int32 {
        switch self {
        case .ok: 0
        case .generic: 1
        case .notSupported: 2
        case .noSpace: 3
        case .unrecognized(let value): value
        }
    }

    package var description: String {
        switch self {
        case .ok: "the keyboard reported a save error without a reason"
        case .generic: "the keyboard could not save the changes; they are still staged, retry or discard them"
        case .notSupported: "the keyboard's firmware cannot save changes; they last until it restarts"
        case .noSpace: "the keyboard's settings storage is full; reset its settings, then push again"
        case .unrecognized(let value): "the keyboard reported unknown save error \(value)"
        }
    }
}
