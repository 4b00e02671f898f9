import KBlinkAPI
import KeyboardLinkDBus

extension KeymapClient {
    /// `ImportProfile`: stages a profile as one edit, merged into the draft, or replacing it with `replace`.
    @discardableResult
    public func importProfile(_ json: String, replace: Bool = false) async throws -> ProfileImportReport {
        try await proxy.call(KBlinkContract.Keymap.importProfile, json, ProfileImportRequest(replace: replace))
    }

    /// `AddLayer`: inserts a transparent layer at `layer` (1 up to the layer count).
    public func addLayer(_ layer: Int) async throws {
        try await proxy.call(KBlinkContract.Keymap.addLayer, UInt32(clamping: layer))
    }

    /// `RemoveLayer`: removes a layer no other layer switches to.
    public func removeLayer(_ layer: Int) async throws {
        try await proxy.call(KBlinkContract.Keymap.removeLayer, UInt32(clamping: layer))
    }

    /// `MoveLayer`: moves layer `from` to index `to`; every layer switch follows its layer.
    public func moveLayer(from: Int, to: Int) async throws {
        try await proxy.call(KBlinkContract.Keymap.moveLayer, UInt32(clamping: from), UInt32(clamping: to))
    }

    /// `CopyLayer`: copies every binding of layer `from` onto layer `to`.
    public func copyLayer(from: Int, to: Int) async throws {
        try await proxy.call(KBlinkContract.Keymap.copyLayer, UInt32(clamping: from), UInt32(clamping: to))
    }

    /// `RenameLayer`: names a layer; an empty name clears it.
    public func renameLayer(_ layer: Int, to name: String) async throws {
        try await proxy.call(KBlinkContract.Keymap.renameLayer, UInt32(clamping: layer), name)
    }

    /// `Pull()`: reads the keyboard's keymap into the draft as one edit (one `undo()` takes it back).
    public func pull() async throws -> PullReport {
        // A locked ZMK keyboard: the daemon waits up to 30 s for the unlock key, then reads every binding.
        try await proxy.call(KBlinkContract.Keymap.pull, timeout: .seconds(150))
    }

    /// `GetPhysicalLayouts()`: the physical layouts the keyboard's firmware knows (ZMK Studio), read from it.
    public func physicalLayouts() async throws -> [PhysicalLayoutEntry] {
        // A locked ZMK keyboard: the daemon waits up to 30 s for the unlock key.
        try await proxy.call(KBlinkContract.Keymap.getPhysicalLayouts, timeout: .seconds(90))
    }

    /// `SetPhysicalLayout(u, b)`: switches the keyboard to its physical layout at `index` and reads the keymap
    /// again (the answer is the read's); `force` switches even over edits a push has not written.
    public func setPhysicalLayout(_ index: UInt32, force: Bool = false) async throws -> PullReport {
        try await proxy.call(KBlinkContract.Keymap.setPhysicalLayout, index, force, timeout: .seconds(150))
    }

    /// `CheckAction`: why the keyboard's firmware cannot hold `action`, or nil when it can.
    public func check(action: String, callTimeout: Duration = .seconds(10)) async throws -> String? {
        try await proxy.call(KBlinkContract.Keymap.checkAction, action, timeout: callTimeout).problems.first?.reason
    }

    /// `Push(a{sv})`: writes the draft to the keyboard (or, with `dryRun`, says what would be written).
    /// - Parameters:
    ///   - request: the options; `unlockTimeout` nil for the daemon's default, `applyOnConnect` nil leaves it.
    ///   - callTimeout: how long to wait for the answer; nil for long enough to unlock and write every binding.
    public func push(_ request: PushRequest, callTimeout: Duration? = nil) async throws -> PushReport {
        // The daemon may wait for the unlock key (30 s unless told) and then write every binding.
        let waiting = Duration.seconds(Int(request.unlockTimeout ?? 30)) + .seconds(120)
        return try await proxy.call(KBlinkContract.Keymap.push, request, timeout: callTimeout ?? waiting)
    }

    /// `Push(a{sv})` with the options spelt out (see ``PushRequest``).
    public func push(
        dryRun: Bool = false, verify: Bool = true, unlockTimeout: UInt32? = nil, applyOnConnect: Bool? = nil,
        overwrite: Bool = false, keepKeyboard: Bool = false, callTimeout: Duration? = nil
    ) async throws -> PushReport {
        try await push(
            PushRequest(
                dryRun: dryRun, verify: verify, unlockTimeout: unlockTimeout, applyOnConnect: applyOnConnect,
                overwrite: overwrite, keepKeyboard: keepKeyboard),
            callTimeout: callTimeout)
    }
}
