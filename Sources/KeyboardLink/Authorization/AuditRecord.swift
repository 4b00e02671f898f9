import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkSupport

/// One entry of kblinkd's audit trail: a write or a read of secrets that was allowed and done (or failed half-way), or
/// a refusal. The journal receives it as structured fields (``fields``) beside its text (``line``): a field is set by
/// kblinkd alone, so no name or text a caller or a device chose can imitate one.
package struct AuditRecord: Sendable, Equatable {
    /// How the call ended.
    package enum Result: Sendable, Equatable {
        /// Allowed and done.
        case allowed(AuthorizationGrant.Basis)
        /// Allowed, then failed with this error (for a push, possibly after writing part of the keymap).
        case failed(AuthorizationGrant.Basis, ErrorName)
        /// Refused with this error, `count` times within ``Authorizer/refusalWindow`` (refusals of one user and action
        /// are written once per window).
        case refused(ErrorName, count: Int)
    }

    /// The action asked for.
    package var action: PolkitAction
    /// What was done, such as `Push` or `Set CurrentZone`; nil for a refusal (decided before the method ran).
    package var operation: String?
    /// The object the call was about.
    package var object: String?
    /// Who asked.
    package var caller: CallerCredentials
    package var result: Result

    package init(
        action: PolkitAction, operation: String?, object: String?, caller: CallerCredentials, result: Result
    ) {
        self.action = action
        self.operation = operation
        self.object = object
        self.caller = caller
        self.result = result
    }

    /// The text: `audit: org.kblink1.write-firmware Push on /org/kblink1/keyboards/... by uid 1000 pid 42 (kblink)
    /// :1.7, allowed by polkit`. Untrusted parts (the command name) are escaped by the logger.
    package var line: String {
        var text = "audit: \(action.id)"
        if let operation { text += " \(operation)" }
        if let object { text += " on \(object)" }
        text += " by \(caller)"
        switch result {
        case .allowed(let basis): text += ", allowed by \(basis)"
        case .failed(let basis, let error): text += ", allowed by \(basis), failed: \(error.rawValue)"
        case .refused(let error, let count):
            text += ", refused: \(error.rawValue)"
            if count > 1 { text += " (\(count) times in the last minute)" }
        }
        return text
    }

    /// The journal's fields, each value escaped to one line: `KBLINK_AUDIT=1`, the action, operation, object, uid,
    /// pid, command, bus name, result (`allowed`, `failed`, `refused`), the error and how many refusals it stands for.
    package var fields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [("KBLINK_AUDIT", "1"), ("KBLINK_ACTION", action.id)]
        if let operation { fields.append(("KBLINK_OPERATION", operation)) }
        if let object { fields.append(("KBLINK_OBJECT", object)) }
        fields.append(("KBLINK_UID", String(caller.uid)))
        if let pid = caller.pid { fields.append(("KBLINK_PID", String(pid))) }
        if let command = caller.commandName { fields.append(("KBLINK_COMM", command)) }
        fields.append(("KBLINK_BUS_NAME", caller.busName.rawValue))
        switch result {
        case .allowed(let basis):
            fields += [("KBLINK_RESULT", "allowed"), ("KBLINK_BASIS", basis.description)]
        case .failed(let basis, let error):
            fields += [
                ("KBLINK_RESULT", "failed"), ("KBLINK_BASIS", basis.description), ("KBLINK_ERROR", error.rawValue),
            ]
        case .refused(let error, let count):
            fields += [("KBLINK_RESULT", "refused"), ("KBLINK_ERROR", error.rawValue), ("KBLINK_COUNT", String(count))]
        }
        return fields.map { ($0.name, $0.value.escapedForLog) }
    }
}
