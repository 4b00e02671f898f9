import Glibc

/// How the ``Authorizer`` decides: by asking polkit (with a group fallback when polkit is absent), or, under
/// `kblinkd-demo`, by allowing the user who started the daemon.
package struct AuthorizationPolicy: Sendable {
    /// Who decides.
    package enum Mode: Sendable, Equatable {
        /// polkit on the bus decides; without polkit, root and members of ``AuthorizationPolicy/fallbackGroup``.
        case polkit
        /// Root and this user are allowed everything, nobody else anything (a private bus has no polkit).
        case simulate(ownerUID: UInt32)
    }

    /// Who decides.
    package var mode: Mode
    /// The group whose members are allowed when polkit is not on the bus.
    package var fallbackGroup: String
    /// How long a check may wait for polkit when it must not ask the person.
    package var timeout: Duration
    /// How long a check may wait for polkit while it asks the person for a password.
    package var interactiveTimeout: Duration
    /// How long polkit's yes for a (caller, action) is reused without asking again; zero asks every time. polkit's
    /// answer depends on things that change (whether the caller's session is active), so it is kept briefly, and a
    /// no is never kept.
    package var grantLifetime: Duration

    /// Creates a policy.
    package init(
        mode: Mode, fallbackGroup: String = "kblink", timeout: Duration = .seconds(10),
        interactiveTimeout: Duration = .seconds(120), grantLifetime: Duration = .seconds(10)
    ) {
        self.mode = mode
        self.fallbackGroup = fallbackGroup
        self.timeout = timeout
        self.interactiveTimeout = interactiveTimeout
        self.grantLifetime = grantLifetime
    }

    /// polkit decides; without it, root and the members of `fallbackGroup`.
    package static func polkit(fallbackGroup: String = "kblink") -> AuthorizationPolicy {
        AuthorizationPolicy(mode: .polkit, fallbackGroup: fallbackGroup)
    }

    /// `kblinkd-demo`: the user running this process (and root) may do everything.
    package static var simulate: AuthorizationPolicy {
        AuthorizationPolicy(mode: .simulate(ownerUID: getuid()))
    }
}
