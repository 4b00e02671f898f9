#if canImport(Glibc)
    import Glibc
#endif

/// Writing to a file descriptor with `write(2)`, for the log and the CLI's output.
package enum FileDescriptorOutput {
    /// Writes every byte, going on after a partial write or an interrupted one; stops quietly on any other error
    /// (a closed pipe or a full disk: whoever writes has nowhere left to report it).
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = InterruptedCall.retry { write(descriptor, base + offset, buffer.count - offset) }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
