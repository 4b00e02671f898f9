/// Why a ZMK Studio call did not produce the answer its caller needs.
package enum StudioRPCError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The keyboard answered with `meta.simple_error`.
    case firmware(StudioMetaError)
    /// The keyboard answered a different kind of response than the request calls for.
    case unexpectedPayload(expected: String, received: String)
    /// The link closed before the answer arrived.
    case disconnected

    package var description: String {
        switch self {
        case .firmware(let error):
            return error.description
        case let .unexpectedPayload(expected, received):
            return "ZMK Studio answered with \(received) where \(expected) was expected; "
                + "the firmware may be incompatible, update it or kblink"
        case .disconnected:
            return "the keyboard disconnected before answering; reconnect it and retry"
        }
    }
}

extension StudioRequestResponse.Payload {
    /// The core answer.
    /// - Throws: StudioRPCError.firmware for a meta error, .unexpectedPayload for another subsystem's answer.
    package func core() throws(StudioRPCError) -> StudioCoreResponse {
        if case .core(let response) = self { return response }
        throw failure(expected: "a core response")
    }

    /// The behaviours answer.
    /// - Throws: StudioRPCError.firmware for a meta error, .unexpectedPayload for another subsystem's answer.
    package func behaviors() throws(StudioRPCError) -> StudioBehaviorsResponse {
        if case .behaviors(let response) = self { return response }
        throw failure(expected: "a behaviors response")
    }

    /// The keymap answer.
    /// - Throws: StudioRPCError.firmware for a meta error, .unexpectedPayload for another subsystem's answer.
    package func keymap() throws(StudioRPCError) -> StudioKeymapResponse {
        if case .keymap(let response) = self { return response }
        throw failure(expected: "a keymap response")
    }

    /// A short name for logs and errors.
    package var summary: String {
        switch self {
        case .meta(.noResponse): "meta no_response"
        case .meta(.simpleError(let error)): "meta error \(error.protobufValue)"
        case .core: "a core response"
        case .behaviors: "a behaviors response"
        case .keymap: "a keymap response"
        case .unrecognized(let field): "unknown subsystem \(field)"
        }
    }

    private func failure(expected: String) -> StudioRPCError {
        if case .meta(.simpleError(let error)) = self { return .firmware(error) }
        return .unexpectedPayload(expected: expected, received: summary)
    }
}
