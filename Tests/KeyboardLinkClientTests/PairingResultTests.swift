import KBlinkAPI
import KeyboardLinkDBus
import Testing

@testable import KeyboardLinkClient

/// Which error replies come after a PairingFinished signal, so the client knows whether to wait for it.
@Suite struct PairingResultTests {
    @Test(
        arguments: [
            (KBlinkError.Code.busy, false), (.invalidArgs, false), (.notSupported, false), (.accessDenied, false),
            (.notAuthorized, false), (.interactiveAuthorizationRequired, false), (.notFound, true), (.canceled, true),
            (.authenticationFailed, true), (.failed, true),
        ])
    func finishedIsSentForPairingsThatStarted(code: KBlinkError.Code, expected: Bool) {
        #expect(PairingResult.daemonSendsFinished(before: KBlinkError(code, "x")) == expected)
    }

    @Test("no PairingFinished follows an error that is not kblinkd's", arguments: [ErrorName.accessDenied, .noReply])
    func finishedIsNotAwaitedForBusErrors(name: ErrorName) {
        #expect(!PairingResult.daemonSendsFinished(before: DBusError(name, "x")))
        #expect(!PairingResult.daemonSendsFinished(before: CancellationError()))
    }
}
