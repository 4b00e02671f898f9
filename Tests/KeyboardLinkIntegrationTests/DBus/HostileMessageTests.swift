import Glibc
import KeyboardLink
import Testing

/// Messages that used to crash or hang a process (D-Bus binding review): a peer's file descriptor where the object
/// server expected decoded values.
/// Each must end in a ``DBusError`` while the connections keep working.
@Suite("Hostile messages get errors, never crashes or hangs")
struct HostileMessageTests {
    @Test(
        "Properties calls with a file descriptor in a variant get errors, and the server keeps serving",
        arguments: ["Set", "Get", "GetAll"])
    func propertiesWithFileDescriptor(_ member: String) async throws {
        try await withBus { _, server, client in
            try await server.export(EchoService.declaration(), at: EchoService.path)
            let descriptor = open("/dev/null", O_RDONLY)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let body: [DBusValue] =
                switch member {
                case "Set": [.string(EchoService.interface.rawValue), .string("Volume"), .variant(.unixFD(descriptor))]
                case "Get": [.string(EchoService.interface.rawValue), .unixFD(descriptor)]
                default: [.unixFD(descriptor)]
                }
            let error = await #expect(throws: DBusError.self) {
                try await client.call(
                    destination: server.uniqueName, path: EchoService.path, interface: .properties,
                    member: try MemberName(member), body)
            }
            #expect(error?.name == .invalidArgs)
            let proxy = EchoService.proxy(from: client, to: server.uniqueName)
            #expect(try await proxy.call(try MemberName("Add"), [.int32(1), .int32(2)], returning: Int32.self) == 3)
        }
    }
}
