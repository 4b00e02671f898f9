import KBlinkAPI
import KeyboardLinkDBus

/// A permission given: which action, to whom and why. The service keeps it to write the audit line
/// (``Authorizer/audit(_:object:operation:)``) once the work is done.
package struct AuthorizationGrant: Sendable, Equatable {
    /// Why the caller was allowed.
    package enum Basis: Sendable, Equatable, CustomStringConvertible {
        /// The caller runs as root.
        case root
        /// polkit said yes (possibly after asking the person).
        case polkit
        /// polkit is not on the bus and the caller is in this group.
        case group(String)
        /// `kblinkd-demo`: the caller is the user who started the daemon.
        case simulate

        package var description: String {
            switch self {
            case .root: "root"
            case .polkit: "polkit"
            case .group(let name): "group \(name), polkit absent"
            case .simulate: "the user running kblinkd-demo"
            }
        }
    }

    /// The action allowed.
    package let action: PolkitAction
    /// Who was allowed.
    package let caller: CallerCredentials
    /// Why.
    package let basis: Basis
}
