import KeyboardLinkBlueZ
import KeyboardLinkDBus

extension PairingCoordinator {
    /// Answers one call to our agent: only BlueZ may call it, and only about a device we are pairing.
    /// - Throws: ``DBusError`` `org.bluez.Error.Rejected` to refuse.
    func handleAgent(_ request: AgentRequest, call: MethodInvocation) async throws -> [DBusValue] {
        guard let sender = call.sender, sender == blueZOwner else {
            throw DBusError(BlueZ.Error.rejected, "only BlueZ (org.bluez) may call kblinkd's pairing agent")
        }
        switch request {
        case .release:
            agentRegisteredWith = nil
            dropQuestions()
            log(.notice, "BlueZ released kblinkd's pairing agent; it is registered again at the next pairing")
            return []
        case .cancel:
            log(.info, "BlueZ canceled its last request to the pairing agent")
            dropQuestions()
            return []
        default:
            break
        }
        let address = request.device.flatMap { try? BluetoothAddress(devicePath: $0) }
        let session = address.flatMap { sessions[$0] }
        let ours = session != nil && session?.devicePath == request.device
        let decision = PairingAgentPolicy.decide(request, pairingThroughUs: ours, newPin: { PinCode.random() })
        switch decision {
        case .reject(let message):
            log(.info, "pairing agent refused \(Self.member(of: request)) for \(request.device?.rawValue ?? "-")")
            throw DBusError(BlueZ.Error.rejected, message)
        case .accept(let values, let prompt):
            guard let prompt, let address else { return values }
            if prompt.kind == .displayPasskey {
                guard call.message.serial > (session?.lastPasskeySerial ?? 0) else { return values }
                update(address) { $0.lastPasskeySerial = call.message.serial }
            }
            update(address) { $0.lastPrompt = prompt.kind }
            await raise(.prompt(prompt, address: address, caller: session?.caller))
            return values
        case .ask(let prompt):
            guard let address, let session else { throw DBusError(BlueZ.Error.rejected, PairingAgentPolicy.notOurs) }
            update(address) { $0.lastPrompt = prompt.kind }
            guard let caller = session.caller else {
                log(.notice, "refused \(Self.member(of: request)) for \(address): nobody to ask")
                throw DBusError(BlueZ.Error.rejected, "nobody is there to confirm the pairing")
            }
            let accepted = await ask(prompt, about: address, of: caller)
            log(
                .info,
                "\(Self.member(of: request)) for \(address): \(accepted ? "confirmed" : "refused") by the Pair caller")
            guard accepted else {
                throw DBusError(BlueZ.Error.rejected, "the person did not confirm the pairing")
            }
            return []
        }
    }

    static func member(of request: AgentRequest) -> String {
        switch request {
        case .release: "Release"
        case .cancel: "Cancel"
        case .requestPinCode: "RequestPinCode"
        case .displayPinCode: "DisplayPinCode"
        case .requestPasskey: "RequestPasskey"
        case .displayPasskey: "DisplayPasskey"
        case .requestConfirmation: "RequestConfirmation"
        case .requestAuthorization: "RequestAuthorization"
        case .authorizeService: "AuthorizeService"
        }
    }
}
