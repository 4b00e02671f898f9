/// An edge of the view, for the near/away-edge answers (like UIKit's `setConstraints(_:activeWhenNearEdge:)`).
package enum Edge: String, CaseIterable, Equatable, Hashable, Sendable {
    /// The top edge.
    case top
    /// The bottom edge.
    case bottom
    /// The left edge.
    case left
    /// The right edge.
    case right
}
