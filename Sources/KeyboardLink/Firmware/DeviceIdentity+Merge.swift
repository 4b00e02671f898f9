extension DeviceIdentity {
    /// Combines the identity read from the PnP ID characteristic with the one BlueZ reports in `Modalias`.
    ///
    /// The PnP ID wins: it is what the keyboard's firmware says now, while BlueZ's `Modalias` may come from an
    /// SDP record or a cache. When both are present and differ, the note says so (the daemon logs it and shows it).
    /// - Returns: the identity to use (nil when neither is known) and a note about a disagreement.
    package static func merge(pnpID: DeviceIdentity?, modalias: DeviceIdentity?) -> DecodedField<DeviceIdentity> {
        guard let pnpID else { return DecodedField(value: modalias) }
        guard let modalias, modalias != pnpID else { return DecodedField(value: pnpID) }
        return DecodedField(
            value: pnpID,
            note: "PnP ID (\(pnpID.modalias)) disagrees with Modalias (\(modalias.modalias)); using the PnP ID")
    }
}
