import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// `org.kblink1.Keyboard` on each keyboard's object: its own property values, and methods that decode the call,
/// hand it to the ``KeyboardRegistry`` (BlueZ calls) or the ``FirmwareRefresher`` (`RefreshInfo`) and answer.
///
/// The methods are built once and shared by every keyboard's object: each handler finds its keyboard from the
/// object path it was called on.
struct KeyboardObject: Sendable {
    let methods: [DBusMethod]

    /// Declares the methods, their handlers holding the jobs weakly (the connection that holds the handlers is
    /// held by both).
    init(registry: KeyboardRegistry, firmware: FirmwareRefresher, access: AccessControl) {
        typealias Keyboard = KBlinkContract.Keyboard
        let methods = [
            DBusMethod(Keyboard.connect) { [weak registry] (call: MethodCallContext) in
                try await registry?.connect(try call.keyboardAddress())
            },
            DBusMethod(Keyboard.disconnect) { [weak registry] (call: MethodCallContext) in
                try await registry?.disconnect(try call.keyboardAddress())
            },
            DBusMethod(Keyboard.forget) { [weak registry] (call: MethodCallContext) in
                try await registry?.forget(try call.keyboardAddress())
            },
            DBusMethod(Keyboard.setTrusted) { [weak registry] (call: MethodCallContext, trusted: Bool) in
                try await registry?.setTrusted(try call.keyboardAddress(), trusted)
            },
            DBusMethod(Keyboard.refreshInfo) { [weak firmware] (call: MethodCallContext) in
                try await firmware?.refresh(try call.keyboardAddress())
            },
        ]
        self.methods = access.guarded(methods, contract: Keyboard.methods)
    }

    /// The interface for one keyboard: its own property values, the shared methods.
    func interface(_ state: KeyboardState) -> DBusInterface {
        let properties = state.propertyValues.map { DBusProperty($0.property, initial: $0.value) }
        return DBusInterface(KBlink.keyboardInterface, methods: methods, properties: properties)
    }
}
