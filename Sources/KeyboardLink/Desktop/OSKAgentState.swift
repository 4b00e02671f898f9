import KeyboardLinkSupport

/// What the on-screen keyboard agent did and must undo, kept in a file of the user's
/// (`$XDG_STATE_HOME/kblink/osk-agent.json`) so that an agent restarted while a keyboard is attached neither acts
/// twice nor forgets the value it must put back.
package struct OSKAgentState: Codable, Hashable, Sendable {
    /// The hardware-keyboard state the agent last applied; nil before the first.
    package var applied: Bool?
    /// The value `screen-keyboard-enabled` had before the agent set it false; nil when the agent did not change it.
    package var previousScreenKeyboard: DconfValue?

    /// An empty state.
    package init(applied: Bool? = nil, previousScreenKeyboard: DconfValue? = nil) {
        self.applied = applied
        self.previousScreenKeyboard = previousScreenKeyboard
    }

    /// Reads the state file; an empty state when there is none.
    /// - Throws: ``FileError`` when it cannot be read, or a decoding error when it is not the agent's.
    package static func load(from path: String) throws -> OSKAgentState {
        guard let bytes = try FileStore().read(path) else { return OSKAgentState() }
        return try JSONCodec.decode(OSKAgentState.self, from: bytes)
    }

    /// Writes the state file atomically (0600), making its directory when needed.
    /// - Throws: ``FileError`` naming the step that failed.
    package func save(to path: String) throws {
        let store = FileStore()
        try store.makeDirectory(FileStore.split(path).directory)
        let bytes = try JSONCodec.encode(self, options: [.sortedKeys])
        try store.writeAtomically(bytes + [UInt8(ascii: "\n")], to: path)
    }
}
