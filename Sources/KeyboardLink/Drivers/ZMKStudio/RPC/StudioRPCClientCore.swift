/// The I/O-free half of a ZMK Studio client: numbers requests, frames them, reassembles the keyboard's frames
/// and matches each answer to its request, separating notifications.
///
/// The driver writes `makeRequest`'s frame to the GATT characteristic and feeds every indication to `receive`.
/// ZMK handles one request at a time and answers in order; notifications raised while handling a request are
/// sent before its answer.
package struct StudioRPCClientCore: Sendable {
    private var nextRequestID: UInt32
    private var pending: [UInt32: StudioRequest.Subsystem] = [:]
    private var decoder: StudioFrameDecoder

    /// Creates a client core.
    /// - Parameters:
    ///   - firstRequestID: the id of the first request; 0 is skipped because proto3 cannot tell it from "unset".
    ///   - maximumFrameLength: the longest response payload accepted.
    package init(firstRequestID: UInt32 = 1, maximumFrameLength: Int = StudioFrameCodec.defaultMaximumPayloadLength) {
        nextRequestID = firstRequestID == 0 ? 1 : firstRequestID
        decoder = StudioFrameDecoder(maximumPayloadLength: maximumFrameLength)
    }

    /// The ids of requests sent and not answered yet, ascending.
    package var pendingRequestIDs: [UInt32] { pending.keys.sorted() }

    /// Numbers a request, records it as pending and returns the frame to write.
    package mutating func makeRequest(_ subsystem: StudioRequest.Subsystem) -> (requestID: UInt32, frame: [UInt8]) {
        var id = nextRequestID
        while id == 0 || pending[id] != nil {
            id &+= 1
        }
        nextRequestID = id &+ 1
        pending[id] = subsystem
        let payload = StudioRequest(requestID: id, subsystem: subsystem).serializedBytes()
        return (id, StudioFrameCodec.encode(payload))
    }

    /// Feeds bytes received from the keyboard (any chunk size) and returns what they completed, in order.
    package mutating func receive(_ chunk: some Collection<UInt8>) -> [StudioRPCEvent] {
        decoder.append(chunk)
        var events: [StudioRPCEvent] = []
        while true {
            let payload: [UInt8]
            do {
                guard let next = try decoder.nextPayload() else { break }
                payload = next
            } catch {
                events.append(.framingError(error))
                continue
            }
            events.append(event(for: payload))
        }
        return events
    }

    /// Stops waiting for a request (it timed out or its caller went away); a late answer becomes
    /// `.unmatchedResponse`. Returns whether it was pending.
    @discardableResult
    package mutating func cancel(requestID: UInt32) -> Bool {
        pending.removeValue(forKey: requestID) != nil
    }

    /// The link closed: forgets a partial frame and every pending request, and returns the abandoned ids
    /// (ascending) so their callers can be failed with `StudioRPCError.disconnected`.
    package mutating func connectionClosed() -> [UInt32] {
        decoder.reset()
        let abandoned = pending.keys.sorted()
        pending.removeAll()
        return abandoned
    }

    private mutating func event(for payload: [UInt8]) -> StudioRPCEvent {
        let response: StudioResponse
        do {
            response = try StudioResponse(serializedBytes: payload)
        } catch {
            return .decodingError(error)
        }
        switch response {
        case .notification(let notification):
            return .notification(notification)
        case .requestResponse(let answer):
            guard let request = pending.removeValue(forKey: answer.requestID) else {
                return .unmatchedResponse(answer)
            }
            return .response(requestID: answer.requestID, request: request, payload: answer.payload)
        }
    }
}
