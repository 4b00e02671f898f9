import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// Our `org.bluez.Agent1`: the object BlueZ calls back during the pairings the daemon starts.
package enum PairingAgent {
    /// The capability we register with: we can show a passkey and take a yes/no, which is what a keyboard
    /// (that types the passkey) pairs with.
    package static let capability = "KeyboardDisplay"

    /// What the agent does with one request; throw a ``DBusError`` (`org.bluez.Error.Rejected`) to refuse.
    package typealias Handler = @Sendable (AgentRequest, MethodInvocation) async throws -> [DBusValue]

    /// The interface to export, every member routed to `handler` with validated arguments.
    package static func interface(handler: @escaping Handler) -> DBusInterface {
        DBusInterface(
            BlueZ.agentInterface,
            methods: AgentRequest.members.map { member in
                DBusMethod(member.name, inputs: member.inputs, outputs: member.outputs) { call in
                    let request: AgentRequest
                    do {
                        request = try AgentRequest(member: member.name, arguments: call.arguments)
                    } catch let error as AgentArgumentError {
                        throw DBusError(BlueZ.Error.rejected, error.message)
                    }
                    return try await handler(request, call)
                }
            })
    }
}
