import KeyboardLinkDBus

/// The outcome of a check: allowed with a grant, or denied with the error to answer the caller with.
package enum AuthorizationDecision: Sendable {
    case allowed(AuthorizationGrant)
    case denied(DBusError)

    /// Whether the caller was allowed.
    package var isAllowed: Bool {
        if case .allowed = self { return true }
        return false
    }
}
