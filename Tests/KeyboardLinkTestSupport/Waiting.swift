/// Waits until `condition` holds, checking every 10 ms, up to `timeout`; returns whether it held.
///
/// For waiting on asynchronous effects (a signal arriving, a process noticing a change); never used to
/// assert speed.
package func eventually(
    timeout: Duration = .seconds(20), _ condition: @Sendable () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

/// Takes the first element of an async sequence, or nil after `timeout`.
package func first<S: AsyncSequence & Sendable>(
    of sequence: S, timeout: Duration = .seconds(20),
    where predicate: @escaping @Sendable (S.Element) -> Bool = { _ in true }
) async -> S.Element? where S.Element: Sendable {
    await withTaskGroup(of: S.Element?.self) { group in
        group.addTask {
            do {
                for try await element in sequence where predicate(element) { return element }
            } catch {}
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let result = await group.next() ?? nil
        group.cancelAll()
        return result
    }
}
