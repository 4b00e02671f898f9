import Glibc
import Testing

@testable import KeyboardLinkDBus

/// File descriptors received in messages: decoded wherever they are (variants included), valid while their owner
/// lives, and closed afterwards, never leaked (libdbus hands out a `dup()` for every `h` it decodes).
@Suite("Received file descriptors")
struct ReceivedDescriptorTests {
    static let interface = InterfaceName("com.example.Descriptors")
    static let path = ObjectPath("/com/example/descriptors")

    /// A file only this test opens, so that the descriptors referring to it can be counted while other tests run.
    final class PrivateFile: Sendable {
        let path: String
        let descriptor: Int32
        let inode: UInt64

        init() throws {
            var template = Array("/tmp/kblink-descriptor-XXXXXX".utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            try #require(descriptor >= 0)
            self.descriptor = descriptor
            self.path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            self.inode = ReceivedDescriptorTests.inode(of: descriptor) ?? 0
        }

        /// How many of this process's descriptors refer to the file (the test's own one included).
        func openCount() -> Int {
            guard let directory = opendir("/proc/self/fd") else { return -1 }
            defer { closedir(directory) }
            var count = 0
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard Int32(name) != nil else { continue }
                var target = [CChar](repeating: 0, count: 4096)
                let length = readlink("/proc/self/fd/" + name, &target, target.count - 1)
                guard length > 0 else { continue }
                if String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == path {
                    count += 1
                }
            }
            return count
        }

        deinit {
            close(descriptor)
            unlink(path)
        }
    }

    /// The inode `descriptor` refers to, nil when it is not open.
    static func inode(of descriptor: Int32) -> UInt64? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return UInt64(status.st_ino)
    }

    /// Methods that report the inode of the descriptor they were given, through each kind of handler.
    static func declaration() -> DBusInterface {
        DBusInterface(
            interface,
            methods: [
                // A MethodInvocation handler (a Message decoded for the call): the descriptor inside a variant.
                DBusMethod(
                    "InodeInVariant", inputs: [DBusArgument("value", .variant)],
                    outputs: [DBusArgument("inode", .uint64)]
                ) { call in
                    guard case .variant(.unixFD(let descriptor))? = call.arguments.first else {
                        throw DBusError.invalidArgs("expected a variant holding a descriptor, got \(call.arguments)")
                    }
                    return [.uint64(ReceivedDescriptorTests.inode(of: descriptor) ?? 0)]
                },
                DBusMethod("Inode", arguments: ["fd"], result: "inode") { (fd: UnixFileDescriptor) in
                    ReceivedDescriptorTests.inode(of: fd.rawValue) ?? 0
                },
                DBusMethod("InodeLater", arguments: ["fd"], result: "inode") { (fd: UnixFileDescriptor) async in
                    await Task.yield()
                    return ReceivedDescriptorTests.inode(of: fd.rawValue) ?? 0
                },
                DBusMethod("Give", arguments: [], result: "fd") { () -> UnixFileDescriptor in
                    UnixFileDescriptor(Self.given.descriptor)
                },
            ])
    }

    /// The file `Give` hands out.
    static let given = try! PrivateFile()

    @Test("a descriptor inside a variant is decoded and usable by the handler")
    func descriptorInVariant() async throws {
        let file = try PrivateFile()
        try await withBus { _, server, client in
            try await server.export(Self.declaration(), at: Self.path)
            let reply = try await client.call(
                destination: server.uniqueName, path: Self.path, interface: Self.interface,
                member: MemberName("InodeInVariant"), [.variant(.unixFD(file.descriptor))])
            #expect(try reply.decode(UInt64.self) == file.inode)
        }
    }

    @Test("typed handlers see a valid descriptor", arguments: ["Inode", "InodeLater"])
    func typedHandlersSeeDescriptor(_ member: String) async throws {
        let file = try PrivateFile()
        try await withBus { _, server, client in
            try await server.export(Self.declaration(), at: Self.path)
            let reply = try await client.call(
                destination: server.uniqueName, path: Self.path, interface: Self.interface,
                member: try MemberName(member), [.unixFD(file.descriptor)])
            #expect(try reply.decode(UInt64.self) == file.inode)
        }
    }

    @Test(
        "200 calls carrying a descriptor leave none open behind them",
        arguments: ["NoSuchMethod", "InodeInVariant", "Inode", "InodeLater"])
    func callsDoNotLeak(_ member: String) async throws {
        let file = try PrivateFile()
        try await withBus { _, server, client in
            try await server.export(Self.declaration(), at: Self.path)
            let before = file.openCount()
            #expect(before == 1)
            let argument: DBusValue =
                member == "InodeInVariant" ? .variant(.unixFD(file.descriptor)) : .unixFD(file.descriptor)
            for _ in 0..<200 {
                _ = try? await client.call(
                    destination: server.uniqueName, path: Self.path, interface: Self.interface,
                    member: try MemberName(member), [argument])
            }
            // A call without an interface is routed by its member alone.
            for _ in 0..<20 {
                _ = try? await client.call(
                    destination: server.uniqueName, path: Self.path, interface: nil,
                    member: try MemberName(member), [argument])
            }
            // A small slack: the last messages may still be on their way out of the connections' threads.
            #expect(file.openCount() - before <= 3, "\(file.openCount() - before) descriptors leaked")
        }
    }

    @Test("a received message's descriptors are valid while the message lives")
    func receivedDescriptorIsValid() async throws {
        try await withBus { _, server, client in
            try await server.export(Self.declaration(), at: Self.path)
            let reply = try await client.call(
                destination: server.uniqueName, path: Self.path, interface: Self.interface,
                member: MemberName("Give"), [])
            let received = try reply.decode(UnixFileDescriptor.self).rawValue
            #expect(received != Self.given.descriptor)
            #expect(Self.inode(of: received) == Self.given.inode)
            withExtendedLifetime(reply) {}
        }
    }

    @Test("a message's descriptors are closed with its last copy, not before")
    func lastCopyClosesDescriptors() throws {
        // When the connection's thread lets go of its copy of a received message is not up to the test: this builds
        // the message as decoding does, and releases its copies in a known order.
        let file = try PrivateFile()
        let duplicate = dup(file.descriptor)
        try #require(duplicate >= 0)
        do {
            var message = Message(kind: .signal, body: [.unixFD(duplicate)])
            message.descriptors = ReceivedDescriptors()
            message.descriptors?.adopt(duplicate)
            var copy: Message? = message
            #expect(file.openCount() == 2)
            message = Message(kind: .signal)
            #expect(file.openCount() == 2, "closed while a copy still holds it")
            #expect(copy?.body == [.unixFD(duplicate)])
            copy = nil
            #expect(file.openCount() == 1)
        }
    }
}
