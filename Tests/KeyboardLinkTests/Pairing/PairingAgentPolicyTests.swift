import Testing

@testable import InsetCore
@testable import KBlinkAPI
@testable import KeyboardLinkBlueZ
@testable import KeyboardLinkClient
@testable import KeyboardLinkCommandLine
@testable import KeyboardLinkDBus
@testable import KeyboardLinkDrivers
@testable import KeyboardLinkFirmware
@testable import KeyboardLinkKeymap
@testable import KeyboardLinkPairing
@testable import KeyboardLinkPresence
@testable import KeyboardLinkService
@testable import KeyboardLinkSimulator
@testable import KeyboardLinkSupport

/// What the agent answers, for devices being paired through kblinkd and for the others.
@Suite struct PairingAgentPolicyTests {
    static let device: ObjectPath = "/org/bluez/hci0/dev_DC_2C_26_00_00_03"
    /// Decides with the PIN generator fixed to 042042.
    static func decide(_ request: AgentRequest, ours: Bool) throws -> AgentDecision {
        let pin = try PinCode("042042")
        return PairingAgentPolicy.decide(request, pairingThroughUs: ours, newPin: { pin })
    }

    @Test func displayPasskeyIsRelayedZeroPaddedWithTheDigitsTyped() throws {
        let decision = try Self.decide(
            .displayPasskey(device: Self.device, passkey: try Passkey(4_821), entered: 2), ours: true)
        #expect(decision == .accept([], prompt: PairingPrompt(kind: .displayPasskey, code: "004821", entered: 2)))
    }

    @Test func enteredCountsAboveSixAreShownAsSix() throws {
        let decision = try Self.decide(
            .displayPasskey(device: Self.device, passkey: try Passkey(1), entered: 9), ours: true)
        #expect(decision == .accept([], prompt: PairingPrompt(kind: .displayPasskey, code: "000001", entered: 6)))
    }

    @Test func requestPinCodeAnswersTheGeneratedPinAndShowsIt() throws {
        let decision = try Self.decide(.requestPinCode(device: Self.device), ours: true)
        #expect(
            decision == .accept([.string("042042")], prompt: PairingPrompt(kind: .displayPinCode, code: "042042")))
    }

    @Test func displayPinCodeShowsBlueZsPin() throws {
        let decision = try Self.decide(.displayPinCode(device: Self.device, pin: try PinCode("0000")), ours: true)
        #expect(decision == .accept([], prompt: PairingPrompt(kind: .displayPinCode, code: "0000")))
    }

    @Test("a numeric comparison is asked of the person, never accepted for them")
    func confirmationIsAsked() throws {
        let decision = try Self.decide(.requestConfirmation(device: Self.device, passkey: try Passkey(12)), ours: true)
        #expect(decision == .ask(PairingPrompt(kind: .confirmPasskey, code: "000012")))
    }

    @Test("pairing without a code is asked of the person too")
    func authorizationIsAsked() throws {
        let decision = try Self.decide(.requestAuthorization(device: Self.device), ours: true)
        #expect(decision == .ask(PairingPrompt(kind: .authorize, code: "")))
    }

    @Test("questions about devices kblinkd is not pairing are refused without asking")
    func questionsAboutOthersAreRefused() throws {
        for request in [
            AgentRequest.requestConfirmation(device: Self.device, passkey: try Passkey(12)),
            .requestAuthorization(device: Self.device),
        ] {
            guard case .reject = try Self.decide(request, ours: false) else {
                Issue.record("\(request) must be refused")
                continue
            }
        }
    }

    @Test func requestPasskeyIsRefusedEvenForOurPairing() throws {
        guard case .reject(let message) = try Self.decide(.requestPasskey(device: Self.device), ours: true) else {
            Issue.record("RequestPasskey must be refused")
            return
        }
        #expect(message.contains("cannot type a passkey"))
    }

    @Test(
        arguments: [
            ("00001124-0000-1000-8000-00805f9b34fb", true), ("00001812-0000-1000-8000-00805F9B34FB", true),
            ("0x1124", true), ("0000110b-0000-1000-8000-00805f9b34fb", false), ("not a uuid", false),
        ])
    func authorizeServiceAllowsOnlyHIDAndHOGP(uuid: String, allowed: Bool) throws {
        let decision = try Self.decide(.authorizeService(device: Self.device, uuid: uuid), ours: true)
        if allowed {
            #expect(decision == .accept([], prompt: nil))
        } else {
            guard case .reject(let message) = decision else {
                Issue.record("\(uuid) must be refused")
                return
            }
            #expect(message.contains("HID (0x1124) and HOGP (0x1812)"))
        }
    }

    @Test(arguments: 0..<6)
    func everyRequestAboutAnotherDeviceIsRejected(index: Int) throws {
        let requests: [AgentRequest] = [
            .requestPinCode(device: Self.device), .displayPinCode(device: Self.device, pin: try PinCode("0000")),
            .displayPasskey(device: Self.device, passkey: try Passkey(1), entered: 0),
            .requestConfirmation(device: Self.device, passkey: try Passkey(1)),
            .requestAuthorization(device: Self.device),
            .authorizeService(device: Self.device, uuid: "00001124-0000-1000-8000-00805f9b34fb"),
        ]
        #expect(try Self.decide(requests[index], ours: false) == .reject(PairingAgentPolicy.notOurs))
    }

    @Test func releaseAndCancelAreAcknowledged() throws {
        #expect(try Self.decide(.release, ours: false) == .accept([], prompt: nil))
        #expect(try Self.decide(.cancel, ours: false) == .accept([], prompt: nil))
    }
}
