import KeyboardLinkDBus

/// How our agent answers one ``AgentRequest``.
package enum AgentDecision: Sendable, Equatable {
    /// Reply with `values` (empty for void methods), after relaying `prompt` when there is one.
    case accept([DBusValue], prompt: PairingPrompt?)
    /// Refuse with `org.bluez.Error.Rejected` and this message.
    case reject(String)
    /// Relay `prompt` to the person who asked for the pairing and answer as they do: accept on yes, refuse on no or
    /// no answer.
    case ask(PairingPrompt)
}
