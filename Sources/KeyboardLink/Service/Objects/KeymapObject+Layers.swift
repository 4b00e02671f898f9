import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkKeymap

extension KeymapObject {
    /// `AddLayer(u layer)` and `RemoveLayer(u layer)`: edits of the draft's layers, undoable like any edit.
    static func layerMethods(_ keymaps: KeymapSessions) -> [DBusMethod] {
        typealias Keymap = KBlinkContract.Keymap
        let sessions = WeakSessions(keymaps)
        return [
            DBusMethod(Keymap.addLayer) { (call: MethodCallContext, layerValue: UInt32) in
                let address = try call.keyboardAddress()
                let layer = try KeymapArgument.layer(layerValue)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.addLayer(layer)
                }
            },
            DBusMethod(Keymap.removeLayer) { (call: MethodCallContext, layerValue: UInt32) in
                let address = try call.keyboardAddress()
                let layer = try KeymapArgument.layer(layerValue)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.removeLayer(layer)
                }
            },
        ]
    }
}
