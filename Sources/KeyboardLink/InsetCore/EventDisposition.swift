/// What the state machine did with the last keyboard event.
package enum EventDisposition: Equatable, Hashable, Sendable {
    /// The event was applied (possibly without changing the inset).
    case applied
    /// The event was ignored and changed nothing.
    case ignored(IgnoreReason)

    /// Why an event was ignored.
    package enum IgnoreReason: String, Equatable, Hashable, Sendable {
        /// Rule 1: `willChangeFrame` with an all-zero end frame, sent while the user drags a floating keyboard.
        case zeroFrameWhileDragging
        /// Rule 2: while docked, an end frame whose width is not the screen's (a rotation in progress).
        case rotationTransient
    }

    /// Whether the event was ignored.
    package var isIgnored: Bool {
        if case .ignored = self { return true }
        return false
    }
}
