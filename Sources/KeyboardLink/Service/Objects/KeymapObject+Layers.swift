import KBlinkAPI
import KeyboardLinkDBus
import KeyboardLinkKeymap

extension KeymapObject {
    /// `AddLayer(u layer)`, `RemoveLayer(u layer)`, `MoveLayer(u from, u to)`, `CopyLayer(u from, u to)` and
    /// `RenameLayer(u layer, s name)`: edits of the draft's layers, each one undoable edit.
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
            DBusMethod(Keymap.moveLayer) { (call: MethodCallContext, fromValue: UInt32, toValue: UInt32) in
                let address = try call.keyboardAddress()
                let from = try KeymapArgument.layer(fromValue)
                let to = try KeymapArgument.layer(toValue)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.moveLayer(from: from, to: to)
                }
            },
            DBusMethod(Keymap.copyLayer) { (call: MethodCallContext, fromValue: UInt32, toValue: UInt32) in
                let address = try call.keyboardAddress()
                let from = try KeymapArgument.layer(fromValue)
                let to = try KeymapArgument.layer(toValue)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.copyLayer(from: from, to: to)
                }
            },
            DBusMethod(Keymap.renameLayer) { (call: MethodCallContext, layerValue: UInt32, nameText: String) in
                let address = try call.keyboardAddress()
                let layer = try KeymapArgument.layer(layerValue)
                try KeymapArgument.check(nameText, "name", limit: LayerName.maximumLength, allowsEmpty: true)
                let name = try LayerName.optional(nameText)
                try await sessions.get().edit(address) { session throws(KeymapError) in
                    try session.renameLayer(layer, to: name)
                }
            },
        ]
    }
}
