import Testing

@testable import KeyboardLinkDrivers

@Suite("ZMK Studio RPC client core")
struct StudioRPCClientCoreTests {
    private func framed(_ response: StudioResponse) -> [UInt8] {
        StudioFrameCodec.encode(response.serializedBytes())
    }

    @Test("Requests get increasing ids and frames that decode back to the request")
    func numbering() throws {
        var core = StudioRPCClientCore()
        let first = core.makeRequest(.core(.getLockState))
        let second = core.makeRequest(.keymap(.getKeymap))
        #expect(first.requestID == 1)
        #expect(second.requestID == 2)
        #expect(core.pendingRequestIDs == [1, 2])
        var decoder = StudioFrameDecoder()
        decoder.append(second.frame)
        let payload = try #require(try decoder.nextPayload())
        #expect(
            try StudioRequest(serializedBytes: payload) == StudioRequest(requestID: 2, subsystem: .keymap(.getKeymap)))
    }

    @Test("Ids wrap around without ever using 0 or a pending id")
    func wrapAround() {
        var core = StudioRPCClientCore(firstRequestID: UInt32.max)
        let last = core.makeRequest(.core(.getLockState)).requestID
        let wrapped = core.makeRequest(.core(.getLockState)).requestID
        #expect(last == UInt32.max)
        #expect(wrapped == 1)
        var fromZero = StudioRPCClientCore(firstRequestID: 0)
        let first = fromZero.makeRequest(.core(.getLockState)).requestID
        #expect(first == 1)
    }

    @Test("Interleaved notifications and out-of-order answers, in 20-byte chunks, come out in stream order")
    func interleaved() {
        var core = StudioRPCClientCore()
        let keymapID = core.makeRequest(.keymap(.getKeymap)).requestID
        let lockID = core.makeRequest(.core(.getLockState)).requestID
        let keymap = StudioKeymap(
            layers: [
                StudioLayer(id: 0, name: "Base", bindings: Array(repeating: .init(behaviorID: 1, param1: 4), count: 30))
            ])
        let stream =
            framed(.notification(.core(.lockStateChanged(.unlocked))))
            + framed(.requestResponse(.init(requestID: lockID, payload: .core(.lockState(.unlocked)))))
            + framed(.notification(.keymap(.unsavedChangesStatusChanged(true))))
            + framed(.requestResponse(.init(requestID: keymapID, payload: .keymap(.keymap(keymap)))))
        var events: [StudioRPCEvent] = []
        for chunk in StudioFrameCodec.split(stream, maximumLength: 20) {
            events += core.receive(chunk)
        }
        #expect(
            events == [
                .notification(.core(.lockStateChanged(.unlocked))),
                .response(requestID: lockID, request: .core(.getLockState), payload: .core(.lockState(.unlocked))),
                .notification(.keymap(.unsavedChangesStatusChanged(true))),
                .response(requestID: keymapID, request: .keymap(.getKeymap), payload: .keymap(.keymap(keymap))),
            ])
        #expect(core.pendingRequestIDs.isEmpty)
    }

    @Test("An answer to a cancelled or unknown request is reported as unmatched")
    func unmatched() {
        var core = StudioRPCClientCore()
        let id = core.makeRequest(.core(.getDeviceInfo)).requestID
        let cancelled = core.cancel(requestID: id)
        let cancelledAgain = core.cancel(requestID: id)
        #expect(cancelled)
        #expect(!cancelledAgain)
        let late = StudioRequestResponse(requestID: id, payload: .meta(.noResponse))
        let bogus = StudioRequestResponse(requestID: 99, payload: .meta(.noResponse))
        let events = core.receive(framed(.requestResponse(late)) + framed(.requestResponse(bogus)))
        #expect(events == [.unmatchedResponse(late), .unmatchedResponse(bogus)])
    }

    @Test("A corrupt frame is reported and the next answer still matches")
    func corruptFrame() {
        var core = StudioRPCClientCore()
        let id = core.makeRequest(.keymap(.checkUnsavedChanges)).requestID
        let answer = framed(.requestResponse(.init(requestID: id, payload: .keymap(.unsavedChanges(false)))))
        let events = core.receive(StudioFrameCodec.encode([0x0A, 0x05, 0x01]) + [0xAB, 0x01, 0xAB] + answer)
        #expect(
            events == [
                .decodingError(.lengthExceedsInput(offset: 1, length: 5, remaining: 1)),
                .framingError(.unexpectedStartOfFrame(droppedLength: 1)),
                .response(
                    requestID: id, request: .keymap(.checkUnsavedChanges), payload: .keymap(.unsavedChanges(false))),
            ])
    }

    @Test("Closing the link abandons pending requests and a partial frame")
    func connectionClosed() {
        var core = StudioRPCClientCore()
        _ = core.makeRequest(.core(.getDeviceInfo))
        _ = core.makeRequest(.keymap(.getKeymap))
        let partial = core.receive([0xAB, 0x0A])
        #expect(partial.isEmpty)
        let abandoned = core.connectionClosed()
        #expect(abandoned == [1, 2])
        #expect(core.pendingRequestIDs.isEmpty)
        // The partial frame is gone: a fresh answer after reconnecting decodes cleanly.
        let id = core.makeRequest(.core(.getLockState)).requestID
        let events = core.receive(framed(.requestResponse(.init(requestID: id, payload: .core(.lockState(.locked))))))
        #expect(
            events == [.response(requestID: id, request: .core(.getLockState), payload: .core(.lockState(.locked)))])
    }
}
