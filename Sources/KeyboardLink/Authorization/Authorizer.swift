import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkSupport

/// Decides whether a caller may do what it asks, by its unique bus name, as fwupd does: root is allowed, polkit is
/// asked for everybody else (`CheckAuthorization` on the caller's `system-bus-name`), and without polkit on the bus
/// only root and the members of a configured group are allowed.
///
/// An actor: a check waiting for polkit suspends, so other checks and everything else the daemon does go on
/// meanwhile, and a polkit that does not answer fails only the call that waits for it, after the policy's timeout.
package actor Authorizer {
    /// polkit's bus name, object and interface.
    static let polkitName: BusName = "org.freedesktop.PolicyKit1"
    static let polkitPath: ObjectPath = "/org/freedesktop/PolicyKit1/Authority"
    static let polkitInterface: InterfaceName = "org.freedesktop.PolicyKit1.Authority"

    /// The connection kblinkd serves on: calls come in on it and polkit is asked through it.
    package nonisolated let connection: BusConnection
    /// How decisions are made.
    package nonisolated let policy: AuthorizationPolicy
    nonisolated let log: AuthorizationLog

    /// polkit's recent yes per caller and action, with when it stops counting.
    private var grants: [GrantKey: ContinuousClock.Instant] = [:]
    /// Whether the journal has been told that polkit is absent (told again after polkit came back and left).
    private var polkitAbsenceReported = false
    private var checksStarted = 0
    /// What the bus said about recent callers. A unique name is never given to another connection during the bus's
    /// life, and a connection's uid, pid and groups are fixed when it connects, so an entry stays true; at most
    /// ``knownCallerLimit`` are kept (all dropped when full), so a caller costs one `GetConnectionCredentials` per
    /// burst of calls rather than one per call.
    private var knownCallers: [BusName: CallerCredentials] = [:]
    static let knownCallerLimit = 256

    /// What a grant answered: polkit's yes holds for this caller, this action and these details (the object) only.
    private struct GrantKey: Hashable {
        let sender: BusName
        let action: PolkitAction
        let details: [String: String]
    }

    /// polkit checks waiting for an answer, per caller's uid.
    private var pendingChecks: [UInt32: Int] = [:]
    /// How many polkit checks one user's calls may have waiting at once; beyond, calls are refused with
    /// `org.freedesktop.DBus.Error.LimitsExceeded` (a caller whose agent never answers holds at most this many).
    package static let maximumPendingChecksPerUser = 8

    /// Creates an authorizer for calls arriving on `connection`.
    package init(connection: BusConnection, policy: AuthorizationPolicy, log: AuthorizationLog) {
        self.connection = connection
        self.policy = policy
        self.log = log
    }

    /// Checks that the caller of `call` may perform `action`, asking the person through polkit only when the call
    /// carried `ALLOW_INTERACTIVE_AUTHORIZATION`.
    /// - Parameter details: shown by polkit's dialog and given to polkit rules (for example the keyboard's name).
    /// - Returns: the grant to pass to ``audit(_:object:operation:)`` once the work is done.
    /// - Throws: `org.kblink1.Error.NotAuthorized`, or `org.freedesktop.DBus.Error.InteractiveAuthorizationRequired`
    ///   when polkit would ask and the caller did not allow it.
    package func authorize(_ action: PolkitAction, for call: MethodCallContext, details: [String: String] = [:])
        async throws(DBusError) -> AuthorizationGrant
    {
        try await authorize(
            action, sender: call.sender, interactive: call.allowsInteractiveAuthorization, details: details)
    }

    /// Checks that `sender` may perform `action`; see ``authorize(_:for:details:)``.
    package func authorize(
        _ action: PolkitAction, sender: BusName?, interactive: Bool, details: [String: String] = [:]
    ) async throws(DBusError) -> AuthorizationGrant {
        switch await decide(action, sender: sender, interactive: interactive, details: details) {
        case .allowed(let grant): return grant
        case .denied(let error): throw error
        }
    }

    /// Whether `sender` may perform `action` without being asked anything: for reads that withhold what the caller
    /// may not see (macro text) instead of failing.
    package func isAuthorized(_ action: PolkitAction, sender: BusName?, details: [String: String] = [:]) async -> Bool {
        await decide(action, sender: sender, interactive: false, details: details).isAllowed
    }

    /// The decision for `sender` and `action`; refusals are logged with the caller.
    package func decide(
        _ action: PolkitAction, sender: BusName?, interactive: Bool, details: [String: String] = [:]
    ) async -> AuthorizationDecision {
        guard let sender else {
            return .denied(
                AuthorizationError.refused(action, because: "the call has no sender (it did not come over a bus)"))
        }
        let caller: CallerCredentials
        do {
            caller = try await credentials(of: sender)
        } catch {
            log.write(.notice, "refused \(action.id) to \(sender.rawValue): its credentials are unknown (\(error))")
            return .denied(AuthorizationError.refused(action, because: "the bus does not know the caller any more"))
        }
        let decision = await decide(action, caller: caller, interactive: interactive, details: details)
        switch decision {
        case .allowed(let grant):
            log.write(.debug, "allowed \(action.id) to \(caller) (\(grant.basis))")
        case .denied(let error):
            recordRefusal(action, caller: caller, details: details, error: error)
        }
        return decision
    }

    /// Writes the audit record of a call that was authorized: done (`failure` nil) or failed, possibly half-way (a push
    /// that wrote part of a keymap). The action, the object, who asked (uid, pid and command name) and the result.
    /// - Parameters:
    ///   - object: the object the call was about (a keyboard's path).
    ///   - operation: what was done, such as the method's name (`Push`, `Set CurrentZone`).
    package nonisolated func audit(
        _ grant: AuthorizationGrant, object: ObjectPath, operation: String, failure: (any Error)? = nil
    ) {
        let result: AuditRecord.Result =
            failure.map { .failed(grant.basis, ($0 as? any DBusErrorRepresentable)?.dbusError.name ?? .failed) }
            ?? .allowed(grant.basis)
        log.audit(
            AuditRecord(
                action: grant.action, operation: operation, object: object.rawValue, caller: grant.caller,
                result: result))
    }

    /// The audit line of an allowed call: `audit: org.kblink1.write-firmware Push on /org/kblink1/... by uid 1000
    /// pid 42 (kblink) :1.7, allowed by polkit`.
    package static func auditLine(_ grant: AuthorizationGrant, object: ObjectPath, operation: String) -> String {
        AuditRecord(
            action: grant.action, operation: operation, object: object.rawValue, caller: grant.caller,
            result: .allowed(grant.basis)
        ).line
    }

    // MARK: - Refusals, once per user and action and minute

    /// How long refusals of one user and action are gathered into one audit record.
    package static let refusalWindow: Duration = .seconds(60)

    private struct RefusalKey: Hashable {
        let uid: UInt32
        let action: PolkitAction
    }

    /// Per user and action: when the window of the last written refusal ends, and how many refusals came since.
    private var refusals: [RefusalKey: (ends: ContinuousClock.Instant, since: Int)] = [:]

    /// Writes a refusal's audit record, unless one of the same user and action was written within the window: then it
    /// is counted, and the count goes into the next record written for them.
    private func recordRefusal(
        _ action: PolkitAction, caller: CallerCredentials, details: [String: String], error: DBusError
    ) {
        let key = RefusalKey(uid: caller.uid, action: action)
        let now = ContinuousClock.now
        if let window = refusals[key], now < window.ends {
            refusals[key] = (window.ends, window.since + 1)
            return
        }
        let count = 1 + (refusals[key]?.since ?? 0)
        // Bounded like the callers' table: windows that ran out are dropped first.
        if refusals.count >= Self.knownCallerLimit { refusals = refusals.filter { now < $0.value.ends } }
        refusals[key] = (now + Self.refusalWindow, 0)
        log.audit(
            AuditRecord(
                action: action, operation: nil, object: details["object"], caller: caller,
                result: .refused(error.name, count: count)))
    }

    // MARK: - Deciding

    private func decide(
        _ action: PolkitAction, caller: CallerCredentials, interactive: Bool, details: [String: String]
    ) async -> AuthorizationDecision {
        if caller.uid == 0 {
            return .allowed(AuthorizationGrant(action: action, caller: caller, basis: .root))
        }
        switch policy.mode {
        case .simulate(let ownerUID):
            guard caller.uid == ownerUID else {
                return .denied(
                    AuthorizationError.refused(
                        action,
                        because: "kblinkd-demo allows only root and the user who started it (uid \(ownerUID))"))
            }
            return .allowed(AuthorizationGrant(action: action, caller: caller, basis: .simulate))
        case .polkit:
            break
        }
        let key = GrantKey(sender: caller.busName, action: action, details: details)
        let now = ContinuousClock.now
        if let expiry = grants[key] {
            if now < expiry {
                return .allowed(AuthorizationGrant(action: action, caller: caller, basis: .polkit))
            }
            grants[key] = nil
        }
        let pending = pendingChecks[caller.uid, default: 0]
        guard pending < Self.maximumPendingChecksPerUser else {
            return .denied(
                DBusError.limitsExceeded(
                    "uid \(caller.uid) already has \(pending) authorization checks waiting for polkit; "
                        + "answer or dismiss the authentication dialogs first"))
        }
        pendingChecks[caller.uid] = pending + 1
        let answer = await askPolkit(action, caller: caller, interactive: interactive, details: details)
        if let left = pendingChecks[caller.uid] { pendingChecks[caller.uid] = left > 1 ? left - 1 : nil }
        switch answer {
        case .authorized:
            polkitAbsenceReported = false
            remember(key, now: ContinuousClock.now)
            return .allowed(AuthorizationGrant(action: action, caller: caller, basis: .polkit))
        case .challenge:
            polkitAbsenceReported = false
            return .denied(AuthorizationError.interactionRequired(action))
        case .notAuthorized(let dismissed):
            polkitAbsenceReported = false
            return .denied(
                AuthorizationError.refused(
                    action,
                    because: dismissed
                        ? "the authentication dialog was dismissed; try again and authenticate"
                        : "polkit refused; ask an administrator to allow it (see /usr/share/polkit-1/actions/org.kblink1.policy)"
                ))
        case .absent:
            return decideWithoutPolkit(action, caller: caller)
        case .failed(let error):
            log.write(.warning, "polkit could not check \(action.id) for \(caller): \(error)")
            return .denied(
                AuthorizationError.refused(
                    action,
                    because:
                        "polkit did not answer (\(error.name.rawValue)); try again, and check 'systemctl status polkit'"
                ))
        }
    }

    /// Keeps polkit's yes for the policy's grant lifetime, first dropping the entries that ran out (so the table holds
    /// only what a recent call earned, whatever the number of callers that came and went).
    private func remember(_ key: GrantKey, now: ContinuousClock.Instant) {
        guard policy.grantLifetime > .zero else { return }
        grants = grants.filter { now < $0.value }
        grants[key] = now + policy.grantLifetime
    }

    /// No polkit on the bus: root (handled before) and members of the fallback group.
    private func decideWithoutPolkit(_ action: PolkitAction, caller: CallerCredentials) -> AuthorizationDecision {
        let group = policy.fallbackGroup
        let groupID = UnixAccounts.groupID(named: group)
        if !polkitAbsenceReported {
            polkitAbsenceReported = true
            let members =
                groupID == nil
                ? "(the group '\(group)' does not exist, so nobody else)" : "and members of the group '\(group)'"
            log.write(
                .warning,
                "polkit (org.freedesktop.PolicyKit1) is not on the bus: only root \(members) may pair, edit keymaps, "
                    + "write firmware and read macros; install and start polkit for per-user decisions")
        }
        guard let groupID else {
            return .denied(
                AuthorizationError.refused(
                    action,
                    because:
                        "polkit is not running and the group '\(group)' does not exist; run as root or start polkit"))
        }
        let callerGroups =
            caller.groupIDs ?? UnixAccounts.user(withID: caller.uid).map { UnixAccounts.groupIDs(of: $0) } ?? []
        guard callerGroups.contains(groupID) else {
            return .denied(
                AuthorizationError.refused(
                    action,
                    because: "polkit is not running, so only root and members of the group '\(group)' may; "
                        + "ask an administrator to add you (usermod -aG \(group) USER, then log in again) or to start polkit"
                ))
        }
        return .allowed(AuthorizationGrant(action: action, caller: caller, basis: .group(group)))
    }

    // MARK: - Asking the bus and polkit

    /// What polkit answered.
    enum PolkitAnswer: Equatable {
        case authorized
        /// polkit would ask the person (the call did not allow interaction).
        case challenge
        /// polkit said no; `dismissed` when the person closed the dialog.
        case notAuthorized(dismissed: Bool)
        /// Nobody owns polkit's name and the bus cannot start it.
        case absent
        /// An error or no answer in time.
        case failed(DBusError)
    }

    /// `CheckAuthorization` for the caller's bus name, bounded by the policy's timeout. On a timeout of an interactive
    /// check, polkit is told to close its dialog (`CancelCheckAuthorization`).
    func askPolkit(
        _ action: PolkitAction, caller: CallerCredentials, interactive: Bool, details: [String: String]
    ) async -> PolkitAnswer {
        checksStarted += 1
        let cancellationID = interactive ? "kblinkd-\(checksStarted)" : ""
        let subject = DBusValue.structure([
            .string("system-bus-name"),
            .dictionary(
                key: .string, value: .variant,
                [DBusDictionaryEntry(key: .string("name"), value: .variant(.string(caller.busName.rawValue)))]),
        ])
        let detailEntries = details.sorted { $0.key < $1.key }.map {
            DBusDictionaryEntry(key: .string($0.key), value: .string($0.value))
        }
        let arguments: [DBusValue] = [
            subject, .string(action.id), .dictionary(key: .string, value: .string, detailEntries),
            .uint32(interactive ? 1 : 0), .string(cancellationID),
        ]
        let reply: Message
        do {
            reply = try await connection.call(
                destination: Self.polkitName, path: Self.polkitPath, interface: Self.polkitInterface,
                member: MemberName("CheckAuthorization"), arguments,
                timeout: interactive ? policy.interactiveTimeout : policy.timeout)
        } catch let error as DBusError {
            switch error.name {
            case .serviceUnknown, .nameHasNoOwner:
                return .absent
            // polkit is installed but could not be started: a refusal (.failed), never the group's fallback.
            case .noReply, .timedOut:
                if interactive { await cancelCheck(cancellationID) }
                return .failed(DBusError(error.name, "no answer within the time allowed"))
            default:
                return .failed(error)
            }
        } catch {
            return .failed(DBusError.failed("\(error)"))
        }
        guard case .structure(let fields)? = reply.body.first, fields.count == 3,
            case .boolean(let authorized) = fields[0], case .boolean(let challenge) = fields[1]
        else {
            return .failed(DBusError.failed("polkit answered with \(reply.signature.rawValue), not (bba{ss})"))
        }
        if authorized { return .authorized }
        if challenge { return .challenge }
        var dismissed = false
        if case .dictionary(_, _, let entries) = fields[2] {
            dismissed = entries.contains { $0.key.stringValue == "polkit.dismissed" }
        }
        return .notAuthorized(dismissed: dismissed)
    }

    /// Tells polkit to close the dialog of a check nobody waits for any more; its answer does not matter.
    private func cancelCheck(_ cancellationID: String) async {
        var message = Message.methodCall(
            destination: Self.polkitName, path: Self.polkitPath, interface: Self.polkitInterface,
            member: "CancelCheckAuthorization", body: [.string(cancellationID)])
        message.noReplyExpected = true
        try? await connection.send(message)
    }

    /// The caller's uid, pid and groups (`GetConnectionCredentials`) and its command name, asked once per caller.
    package func credentials(of sender: BusName) async throws -> CallerCredentials {
        if let known = knownCallers[sender] { return known }
        let credentials = try await askBusForCredentials(of: sender)
        if knownCallers.count >= Self.knownCallerLimit { knownCallers.removeAll(keepingCapacity: true) }
        knownCallers[sender] = credentials
        return credentials
    }

    private func askBusForCredentials(of sender: BusName) async throws -> CallerCredentials {
        let reply = try await connection.call(
            destination: .messageBus, path: ObjectPath("/org/freedesktop/DBus"), interface: .dbus,
            member: MemberName("GetConnectionCredentials"), [.string(sender.rawValue)], timeout: policy.timeout)
        guard case .dictionary(_, _, let entries)? = reply.body.first else {
            throw DBusError.failed("the bus answered GetConnectionCredentials with \(reply.signature.rawValue)")
        }
        var uid: UInt32?
        var pid: UInt32?
        var groups: [UInt32]?
        for entry in entries {
            switch (entry.key.stringValue, entry.value.unwrapped) {
            case ("UnixUserID", .uint32(let value)): uid = value
            case ("ProcessID", .uint32(let value)): pid = value
            case ("UnixGroupIDs", .array(_, let values)):
                groups = values.compactMap { if case .uint32(let id) = $0 { id } else { nil } }
            default: break
            }
        }
        guard let uid else { throw DBusError.failed("the bus did not say which user \(sender.rawValue) is") }
        return CallerCredentials(
            busName: sender, uid: uid, pid: pid, groupIDs: groups,
            commandName: pid.flatMap { UnixProcess.commandName(of: $0) })
    }
}
