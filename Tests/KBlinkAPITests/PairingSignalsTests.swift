import KeyboardLinkBlueZ
import KeyboardLinkDBus
import Testing

@testable import KBlinkAPI

/// The bodies of PairingPrompt and PairingFinished, and the client's reading of them.
@Suite struct PairingSignalsTests {
    static let keyboard = KBlink.keyboardPath(BluetoothAddress(validating: "DC:2C:26:00:00:03")!)

    @Test func promptRoundTrip() throws {
        let signal = PairingPromptSignal(
            keyboard: Self.keyboard, prompt: PairingPromptRelay(kind: .displayPasskey, code: "004821", entered: 3))
        #expect(Signature(signal.body.map(\.type)).rawValue == "ossq")
        #expect(try PairingPromptSignal(body: signal.body) == signal)
        #expect(signal.body[1] == .string("display-passkey"))
    }

    @Test func finishedRoundTrip() throws {
        let signal = PairingFinishedSignal(
            keyboard: Self.keyboard, ok: false, error: "org.kblink1.Error.Canceled", message: "m")
        #expect(Signature(signal.body.map(\.type)).rawValue == "obss")
        #expect(try PairingFinishedSignal(body: signal.body) == signal)
    }

    @Test func declarationsMatchTheContract() {
        let declared = KBlinkContract.Manager.signals.map { "\($0.name.rawValue)(\($0.signature.rawValue))" }
        #expect(declared == ["PairingPrompt(ossq)", "PairingFinished(obss)"])
        // The body types are the signals' signatures: what is sent is what is declared.
        let prompt = PairingPromptSignal(
            keyboard: Self.keyboard, prompt: PairingPromptRelay(kind: .displayPasskey, code: "1", entered: 0))
        #expect(Signature(prompt.body.map(\.type)) == KBlinkContract.Manager.pairingPromptSignal.signature)
    }

    @Test(
        arguments: [
            [DBusValue.objectPath(keyboard), .string("display-passkey"), .string("1"), .uint32(1)],
            [.objectPath(keyboard), .string("shout-passkey"), .string("1"), .uint16(1)],
            [.string("/org"), .string("unlock"), .string(""), .uint16(0)],
            [],
        ])
    func malformedPromptsAreRefused(body: [DBusValue]) {
        #expect(throws: PairingProtocolError.self) { try PairingPromptSignal(body: body) }
    }

    @Test func everyKindHasItsWireName() throws {
        #expect(
            PairingPromptKind.allCases.map(\.rawValue) == [
                "display-passkey", "display-pincode", "confirm-passkey", "authorize", "unlock",
            ])
        for kind in PairingPromptKind.allCases {
            #expect(try PairingPromptKind(wire: kind.rawValue) == kind)
        }
    }
}
