/// Something `StudioRPCClientCore` found in the bytes the keyboard sent, in arrival order.
package enum StudioRPCEvent: Equatable, Sendable {
    /// The answer to a pending request; `request` is what was asked.
    case response(requestID: UInt32, request: StudioRequest.Subsystem, payload: StudioRequestResponse.Payload)
    /// An unsolicited event (lock state, unsaved changes).
    case notification(StudioNotification)
    /// An answer whose id is not pending: late after `cancel(requestID:)`, or a confused peer. Safe to log and drop.
    case unmatchedResponse(StudioRequestResponse)
    /// A frame was dropped by the framing layer; the decoder has resynchronised.
    case framingError(StudioFramingError)
    /// A complete frame did not decode as `zmk.studio.Response`.
    case decodingError(ProtobufError)
}
