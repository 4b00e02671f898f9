import Glibc

/// System calls interrupted by a signal (`EINTR`) are retried here, and only here.
package enum InterruptedCall {
    /// Runs a C call again while it fails with `EINTR`: it returned -1 and set `errno` to `EINTR`.
    @inlinable
    package static func retry<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }

    /// Runs a call that returns `-errno` on failure (``FileSyscalls``'s form) again while it returns `-EINTR`.
    @inlinable
    package static func retryNegatedErrno<Result: SignedInteger>(_ call: () -> Result) -> Result {
        let interrupted = Result(0) - Result(EINTR)
        while true {
            let result = call()
            if result != interrupted { return result }
        }
    }
}
