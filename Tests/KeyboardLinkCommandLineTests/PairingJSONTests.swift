import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkClient
import Testing

@testable import KeyboardLinkCommandLine

/// `kblink pair --json`: one JSON line per prompt and one for the end.
@Suite struct PairingJSONTests {
    @Test func jsonLinesHaveTheDocumentedKeys() throws {
        let target = PairingTarget(address: try BluetoothAddress("DC:2C:26:00:00:03"), name: "Keychron K3")
        let prompt = PairingPromptRelay(kind: .displayPasskey, code: "004821", entered: 2).json(for: target)
        #expect(
            prompt.rendered()
                == #"{"event":"prompt","keyboard":"/org/kblink1/keyboards/dev_DC_2C_26_00_00_03","address":"DC:2C:26:00:00:03","kind":"display-passkey","code":"004821","entered":2}"#
        )
        let failed = PairingResult(keyboard: target.keyboard, error: KBlinkError.canceled("stopped"))
            .json(for: target, paired: false, trusted: false, connected: false)
        #expect(
            failed.rendered()
                == #"{"event":"finished","keyboard":"/org/kblink1/keyboards/dev_DC_2C_26_00_00_03","address":"DC:2C:26:00:00:03","ok":false,"error":"org.kblink1.Error.Canceled","message":"stopped","paired":false,"trusted":false,"connected":false}"#
        )
        let half = PairingResult(keyboard: target.keyboard, error: nil).json(
            for: target, paired: true, trusted: true, connected: false)
        #expect(half.rendered().contains(#""ok":false"#), "ok only when paired, trusted and connected")
    }
}
