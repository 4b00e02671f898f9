import KBlinkAPI
import KeyboardLinkAuthorization
import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// Puts the ``Authorizer`` in front of every `org.kblink1` handler that needs it, as the contract says
/// (``KBlinkMethod/access``, ``KBlinkProperty/writeAction``): the check runs before the arguments are read and before
/// the handler, so a refused call changes nothing and costs no more than its header; an allowed write or read of macros
/// is followed by its audit record in the journal, done or failed. A method whose contract allows larger calls than ``KBlink/callLimits`` gets its limit.
///
/// Every declared method must be in the contract: one that is not stops the daemon at start-up, so no method can be
/// served without a decision about who may call it.
struct AccessControl: Sendable {
    let authorizer: Authorizer
    /// The address of the keyboard `Pair` names (an address, or a known keyboard's name), for polkit's details; nil
    /// when it names none.
    var pairingAddress: @Sendable (String) async -> String? = { _ in nil }
    /// The keyboard a `device` argument names (``KeyboardMatcher``), for the methods that act on it
    /// (``KBlinkAccess/requiresForKeyboard(_:)``); nil when it names none.
    var keyboardAddress: @Sendable (String) async -> BluetoothAddress? = { _ in nil }
    /// The owners of the current macros of the keyboard at a path (nil for a macro without one).
    var macroOwners: @Sendable (ObjectPath) async -> [UInt32?] = { _ in [] }

    /// The methods with their checks put in front, matched to the contract by name.
    /// - Precondition: each method is one of `contract`'s.
    func guarded(_ methods: [DBusMethod], contract: [KBlinkMethodDeclaration]) -> [DBusMethod] {
        methods.map { method in
            guard let declared = contract.first(where: { $0.name == method.name }) else {
                preconditionFailure("\(method.name) is served but not in the contract: say who may call it")
            }
            let served = guarded(method, access: declared.access)
            guard declared.maximumBodySize != KBlinkMethodDeclaration.defaultMaximumBodySize else { return served }
            return served.acceptingBodies(upTo: declared.maximumBodySize)
        }
    }

    /// One method with the check its access needs.
    func guarded(_ method: DBusMethod, access: KBlinkAccess) -> DBusMethod {
        guard let action = access.action else { return method }
        let authorizer = authorizer
        let operation = method.name.rawValue
        let pairs = method.name == KBlinkContract.Manager.pair.name
        let forKeyboard = access == .requiresForKeyboard(action)
        let pairingAddress = pairingAddress
        let keyboardAddress = keyboardAddress
        return method.guarded { call in
            var details = Self.details(call)
            var object = call.path
            // Pair's polkit check names the device (a rule can allow one keyboard; the dialog can say which).
            if pairs, let device = call.leadingText, let address = await pairingAddress(device) {
                details["address"] = address
            }
            // A method that acts on the keyboard its first argument names is checked as a call on that keyboard.
            if forKeyboard, let device = call.leadingText, let address = await keyboardAddress(device) {
                details = Self.keyboardDetails(address)
                object = KBlink.keyboardPath(address)
            }
            let grant = try await authorizer.authorize(action, for: call, details: details)
            if action == .readMacros, await readsOthersMacros(call.path, uid: grant.caller.uid) {
                _ = try await authorizer.authorize(.readOthersMacros, for: call, details: details)
            }
            // Every write and every read of secrets is audited, done or failed (a push may fail half-way).
            let audited = object
            return { failure in authorizer.audit(grant, object: audited, operation: operation, failure: failure) }
        }
    }

    /// Checks again, in the handler of a ``KBlinkAccess/requiresForKeyboard(_:)`` method, for the keyboard the
    /// handler resolved: the guard resolved the `device` argument before, and a keyboard may have come, gone or been
    /// renamed since (while polkit asked the person, for example). polkit's yes for the same caller, action and
    /// keyboard is reused, so when both resolved the same keyboard this asks polkit nothing.
    func confirm(_ action: PolkitAction, for call: MethodCallContext, keyboard address: BluetoothAddress)
        async throws
    {
        _ = try await authorizer.authorize(action, for: call, details: Self.keyboardDetails(address))
    }

    /// A writable property's setter with the check its contract entry names in front, and the audit line after.
    func guardedSetter<Value>(
        _ property: KBlinkProperty<Value>,
        _ setter: @escaping @Sendable (DBusValue, MethodInvocation) async throws -> DBusValue
    ) -> @Sendable (DBusValue, MethodInvocation) async throws -> DBusValue {
        guard let action = property.declaration.writeAction else {
            preconditionFailure("\(property.name) is not writable in the contract")
        }
        let authorizer = authorizer
        let operation = "Set \(property.name.rawValue)"
        return { value, invocation in
            let call = MethodCallContext(invocation)
            let grant = try await authorizer.authorize(action, for: call, details: Self.details(call))
            do {
                let stored = try await setter(value, invocation)
                authorizer.audit(grant, object: call.path, operation: operation)
                return stored
            } catch {
                authorizer.audit(grant, object: call.path, operation: operation, failure: error)
                throw error
            }
        }
    }

    /// Whether the caller may read macro text (`org.kblink1.read-macros`), asked without interaction: for answers
    /// open to everyone that withhold the text from others (`Diff`, the `ImportProfile` answer).
    func mayReadMacros(_ call: MethodCallContext) async -> Bool {
        guard await authorizer.isAuthorized(.readMacros, sender: call.sender, details: Self.details(call)),
            let uid = await callerUID(call)
        else { return false }
        guard await readsOthersMacros(call.path, uid: uid) else { return true }
        return await authorizer.isAuthorized(.readOthersMacros, sender: call.sender, details: Self.details(call))
    }

    /// The caller's uid, nil when the bus no longer knows it.
    func callerUID(_ call: MethodCallContext) async -> UInt32? {
        guard let sender = call.sender else { return nil }
        return try? await authorizer.credentials(of: sender).uid
    }

    /// Whether reading the macros of the keyboard at `path` reads some another user set (root reads everyone's).
    private func readsOthersMacros(_ path: ObjectPath, uid: UInt32) async -> Bool {
        guard uid != 0 else { return false }
        return await macroOwners(path).contains { $0 != nil && $0 != uid }
    }

    /// What polkit's dialog and rules are told: the object the call is about.
    private static func details(_ call: MethodCallContext) -> [String: String] {
        ["object": call.path.rawValue]
    }

    /// What polkit's dialog and rules are told about a call on a keyboard named by its `device` argument: the
    /// keyboard's object and its address.
    static func keyboardDetails(_ address: BluetoothAddress) -> [String: String] {
        ["object": KBlink.keyboardPath(address).rawValue, "address": address.description]
    }
}
