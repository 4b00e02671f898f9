import KeyboardLink
import Testing

/// Runs `body`, which must fail with a ``DBusError`` named `name`, and returns that error for further checks (nil,
/// with an issue recorded, when `body` returned or threw something else).
@discardableResult
func expectDBusError(
    _ name: ErrorName, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> DBusError? {
    do {
        try await body()
        Issue.record("expected \(name), got a reply", sourceLocation: sourceLocation)
    } catch let error as DBusError {
        #expect(error.name == name, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected \(name), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Calls `Add(index, addend)` through `proxy` for every index in `0..<count`, all at once (one task each), and returns
/// each answer by its index.
func concurrentAdds(_ proxy: DBusProxy, count: Int, adding addend: Int32) async throws -> [Int32: Int32] {
    let add = MemberName("Add")
    return try await withThrowingTaskGroup(of: (Int32, Int32).self) { group in
        for index in Int32(0)..<Int32(count) {
            group.addTask {
                (index, try await proxy.call(add, [.int32(index), .int32(addend)], returning: Int32.self))
            }
        }
        var sums: [Int32: Int32] = [:]
        for try await (index, sum) in group { sums[index] = sum }
        return sums
    }
}

/// Sends `member` of `interface` at `path` on `server` from `client`, flagged no-reply (the server must run the method
/// and send nothing back).
func sendNoReplyCall(
    _ member: String, path: ObjectPath, interface: InterfaceName, on server: BusConnection, from client: BusConnection
) async throws {
    var message = Message.methodCall(
        destination: server.uniqueName, path: path, interface: interface, member: try MemberName(member))
    message.noReplyExpected = true
    try await client.send(message)
}
