extension UInt16 {
    /// `0x046d`: the form of IDs in the `Firmware` property (four lowercase hex digits after `0x`).
    package var hexID: String { "0x" + String(self, radix: 16).leftPadded(to: 4) }
}
