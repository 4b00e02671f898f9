/// A VIA transport over one end of a `socketpair(AF_UNIX, SOCK_SEQPACKET)`: each 32-byte message is one report,
/// as on a hidraw node, so tests and the simulator run the real client without `/dev/hidraw`.
package final class VIASocketTransport: VIATransport {
    private let channel: VIADescriptorChannel

    /// Takes ownership of a connected SOCK_SEQPACKET descriptor.
    /// - Parameter timeoutMilliseconds: how long `receive()` waits for a report.
    package init(adoptingDescriptor descriptor: Int32, timeoutMilliseconds: Int = 2_000) {
        channel = VIADescriptorChannel(
            descriptor: descriptor, path: "socketpair", isSocket: true, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Creates a connected pair: a transport for the client, and the peer descriptor for a (simulated) keyboard,
    /// which the caller then owns.
    /// - Throws: VIATransportError.systemCall when `socketpair` fails.
    package static func makePair(timeoutMilliseconds: Int = 2_000) throws -> (
        transport: VIASocketTransport, peerDescriptor: Int32
    ) {
        let (local, peer) = try VIAPosix.seqpacketPair()
        return (VIASocketTransport(adoptingDescriptor: local, timeoutMilliseconds: timeoutMilliseconds), peer)
    }

    package func send(_ report: VIAReport) async throws {
        try await channel.write(report.bytes)
    }

    package func receive() async throws -> VIAReport {
        let bytes = try await channel.read(maximumLength: VIAReport.length + 1)
        guard bytes.count == VIAReport.length else {
            throw VIATransportError.unexpectedLength(count: bytes.count, expected: VIAReport.length)
        }
        return try VIAReport(validating: bytes)
    }

    /// Closes this end; the peer then reads end of file.
    package func close() {
        channel.close()
    }
}
