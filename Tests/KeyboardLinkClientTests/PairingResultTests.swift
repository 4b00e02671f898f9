import KBlinkAPI
import KeyboardLinkDBus
import Testing

@testable import KeyboardLinkClient

/// Which error replies come after a PairingFinished signal, so the client knows whether to wait for it.
@Suite struct PairingResultTests {
    @Test(
        arguments: [
            (KBlinkError.busy, false), (KBlinkError.invalidArgs, false), (KBlinkError.notSupported, false),
            (KBlinkError.accessDenied, false), (ErrorName.accessDenied, false), (ErrorName.invalidArgs, false),
            (ErrorName.noReply, false), (KBlinkError.notFound, true), (KBlinkError.canceled, true),
            (KBlinkError.authenticationFailed, true), (KBlinkError.failed, true),
        ])
    func finishedIsSentForPairingsThatStarted(name: ErrorName, expected: Bool) {
        #expect(PairingResult.daemonSendsFinished(before: DBusError(name, "x")) == expected)
    }
}
