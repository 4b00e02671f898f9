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
