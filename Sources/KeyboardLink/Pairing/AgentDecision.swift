import KBlinkAPI
import KeyboardLinkDBus

/// How our agent answers one ``AgentRequest``.
public enum AgentDecision: Sendable, Equatable {
    /// Reply with `values` (empty for void methods), after relaying `prompt` when there is one.
    case accept([DBusValue], prompt: PairingPromptRelay?)
    /// Refuse with `org.bluez.Error.Rejected` and this message.
    case reject(String)
}
