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

/// Reading BlueZ's calls to our agent.
@Suite struct AgentRequestTests {
    static let device: ObjectPath = "/org/bluez/hci0/dev_DC_2C_26_00_00_03"

    @Test func readsEveryMember() throws {
        let device = DBusValue.objectPath(Self.device)
        #expect(try AgentRequest(member: "Release", arguments: []) == .release)
        #expect(try AgentRequest(member: "Cancel", arguments: []) == .cancel)
        #expect(try AgentRequest(member: "RequestPinCode", arguments: [device]) == .requestPinCode(device: Self.device))
        #expect(
            try AgentRequest(member: "DisplayPinCode", arguments: [device, .string("0000")])
                == .displayPinCode(device: Self.device, pin: try PinCode("0000")))
        #expect(try AgentRequest(member: "RequestPasskey", arguments: [device]) == .requestPasskey(device: Self.device))
        #expect(
            try AgentRequest(member: "DisplayPasskey", arguments: [device, .uint32(4_821), .uint16(3)])
                == .displayPasskey(device: Self.device, passkey: try Passkey(4_821), entered: 3))
        #expect(
            try AgentRequest(member: "RequestConfirmation", arguments: [device, .uint32(999_999)])
                == .requestConfirmation(device: Self.device, passkey: try Passkey(999_999)))
        #expect(
            try AgentRequest(member: "RequestAuthorization", arguments: [device])
                == .requestAuthorization(device: Self.device))
        #expect(
            try AgentRequest(member: "AuthorizeService", arguments: [device, .string("0x1812")])
                == .authorizeService(device: Self.device, uuid: "0x1812"))
    }

    @Test func declaresTheAgent1Signatures() {
        let signatures = Dictionary(
            uniqueKeysWithValues: AgentRequest.members.map { member in
                (
                    member.name,
                    Signature(member.inputs.map(\.type)).rawValue + "->"
                        + Signature(member.outputs.map(\.type)).rawValue
                )
            })
        #expect(signatures.count == 9)
        #expect(signatures["DisplayPasskey"] == "ouq->")
        #expect(signatures["RequestPinCode"] == "o->s")
        #expect(signatures["RequestPasskey"] == "o->u")
        #expect(signatures["AuthorizeService"] == "os->")
        #expect(signatures["Cancel"] == "->")
    }

    @Test(
        arguments: [
            ("DisplayPasskey", [DBusValue.objectPath(device), .uint32(1_000_000), .uint16(0)]),
            ("DisplayPinCode", [.objectPath(device), .string("")]),
            ("DisplayPinCode", [.objectPath(device), .string(String(repeating: "1", count: 17))]),
            ("RequestPinCode", [.string("/org/bluez")]),
            ("Frobnicate", []),
        ])
    func refusesWhatBlueZWouldNotSend(member: String, arguments: [DBusValue]) {
        #expect(throws: AgentArgumentError.self) { try AgentRequest(member: member, arguments: arguments) }
    }

    @Test func theDeviceOfEachRequest() throws {
        #expect(AgentRequest.release.device == nil)
        #expect(AgentRequest.cancel.device == nil)
        #expect(AgentRequest.requestPasskey(device: Self.device).device == Self.device)
    }
}
