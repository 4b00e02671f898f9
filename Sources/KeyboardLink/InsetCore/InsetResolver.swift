/// The layout core as one pure function, for the daemon's `ResolveInsets` and the CLI.
package enum InsetResolver {
    /// Answers `request` by running the state machine: a hidden keyboard, the preceding events in order, then the
    /// event. Never crashes; validate the request first (`InsetRequest.validate()`) to reject bad numbers.
    package static func resolve(_ request: InsetRequest) -> InsetAnswer {
        state(for: request).answer
    }

    /// The state machine after `request`, for callers that go on feeding it (a `--watch` loop).
    package static func state(for request: InsetRequest) -> KeyboardLayoutState {
        var state = KeyboardLayoutState(
            geometry: request.geometry,
            options: request.options,
            hardwareKeyboardAttached: request.hardwareKeyboardAttached
        )
        for field in request.fields { state.register(field) }
        state.setGuardianTopLimit(request.topLimit)
        state.focus(request.focusedField)
        for event in request.precedingEvents { state.consume(event) }
        if let event = request.event { state.consume(event) }
        return state
    }
}
