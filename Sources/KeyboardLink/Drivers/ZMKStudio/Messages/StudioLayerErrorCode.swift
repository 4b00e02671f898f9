/// The error codes of ZMK Studio's layer requests, by number: 0 is OK, 1 `GENERIC` for every request; then per
/// request `MoveLayerErrorCode` (2 invalid layer, 3 invalid destination), `RemoveLayerErrorCode` (2 invalid index),
/// `RestoreLayerErrorCode` (2 invalid id, 3 invalid index), `SetLayerPropsResponse` (2 invalid id) and
/// `SetActivePhysicalLayoutErrorCode` (2 invalid layout index).
package struct StudioLayerErrorCode: ProtobufEnum, CustomStringConvertible {
    /// The number on the wire.
    package var protobufValue: Int32

    package init(protobufValue: Int32) {
        self.protobufValue = protobufValue
    }

    /// 0: no error.
    package static let ok = StudioLayerErrorCode(protobufValue: 0)
    /// 1: the request failed, reason not said.
    package static let generic = StudioLayerErrorCode(protobufValue: 1)
    /// 2: an invalid layer, index or id (what the request names in field 1).
    package static let invalidFirst = StudioLayerErrorCode(protobufValue: 2)
    /// 3: an invalid destination or index (what the request names in field 2).
    package static let invalidSecond = StudioLayerErrorCode(protobufValue: 3)

    package var description: String {
        switch protobufValue {
        case 0: "no error"
        case 1: "generic error"
        case 2: "invalid layer"
        case 3: "invalid destination"
        default: "unknown error \(protobufValue)"
        }
    }
}
