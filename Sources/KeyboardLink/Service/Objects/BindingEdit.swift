import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkKeymap

/// What `Keymap.SetBinding` and `Manager.SetKeyboardBinding` do once they know the keyboard: check the arguments'
/// lengths, stage the binding and answer it as stored, with what is known without asking the keyboard of whether its
/// firmware can hold the action. Holds the sessions and the writer weakly.
struct BindingEdit: Sendable {
    private let sessions: WeakSessions
    private let knownSupport: @Sendable (String, BluetoothAddress) async -> (checked: Bool, problem: String)

    init(_ keymaps: KeymapSessions, _ writer: KeymapWriter) {
        sessions = WeakSessions(keymaps)
        knownSupport = { [weak writer] action, address in
            await writer?.knownSupport(of: action, on: address) ?? (true, "")
        }
    }

    /// Stages `action` on `key` of the keyboard at `address`.
    /// - Throws: `org.kblink1.Error.InvalidArgs` for an argument too long or a key or action kblinkd cannot resolve.
    func set(_ address: BluetoothAddress, zone: String, layer layerValue: UInt32, key: String, action: String)
        async throws -> StoredBinding
    {
        try KeymapArgument.check(zone, "zone", limit: KeymapArgument.zoneLimit, allowsEmpty: true)
        try KeymapArgument.check(key, "key", limit: KeymapArgument.keyLimit)
        try KeymapArgument.check(action, "action", limit: KeymapArgument.actionLimit)
        let layer = try KeymapArgument.layer(layerValue)
        let stored = try await sessions.get().edit(address) { session throws(KeymapError) in
            try session.setBindingResolved(zone: zone, layer: layer, key: key, action: action)
        }
        let firmware = await knownSupport(stored.action, address)
        return StoredBinding(
            zone: stored.zone, layer: layerValue, key: stored.key, action: stored.action,
            firmwareChecked: firmware.checked, firmwareProblem: firmware.problem)
    }
}
