extension VIAClient {
    /// How many macros the firmware has slots for.
    package func macroCount() async throws -> Int {
        guard case .macroCount(let count) = try await perform(.macroGetCount) else { throw unexpected() }
        return Int(count)
    }

    /// The macro buffer's size in bytes.
    package func macroBufferSize() async throws -> Int {
        guard case .macroBufferSize(let size) = try await perform(.macroGetBufferSize) else { throw unexpected() }
        return Int(size)
    }

    /// Reads the whole macro buffer (macros separated by NUL, zero-filled after the last).
    package func readMacroBuffer() async throws -> [UInt8] {
        let size = try await macroBufferSize()
        return try await readBuffer(size: size) { .macroGetBuffer(offset: $0, length: $1) }
    }

    /// Writes `contents` (encoded macros, NUL-separated) to the macro buffer, zero-filled to its end.
    ///
    /// QMK plays no macro while the buffer's last byte is non-zero, so the write sets that byte to 0xFF first,
    /// then writes the bytes that differ from `old`, and clears the last byte last. A write cut short leaves the
    /// keyboard playing nothing rather than half-written macros.
    /// - Parameter old: the buffer as last read from the keyboard; nil rewrites everything.
    /// - Returns: the number of reports sent (0 when nothing differs).
    /// - Throws: VIAClientError.macroBufferTooSmall before writing anything when `contents` does not fit with
    ///   a final NUL; .noMacroBuffer when the keyboard has none.
    @discardableResult
    package func writeMacroBuffer(_ contents: [UInt8], replacing old: [UInt8]? = nil) async throws -> Int {
        let size = try await macroBufferSize()
        let commands = try Self.macroWriteCommands(contents: contents, bufferSize: size, replacing: old)
        for command in commands {
            try await perform(command)
        }
        return commands.count
    }

    /// Clears every macro.
    package func resetMacros() async throws {
        try await perform(.macroReset)
    }

    /// The reports `writeMacroBuffer` sends: busy marker, differing chunks of at most 28 bytes, then the last
    /// byte cleared. Pure, for dry runs and tests.
    /// - Throws: VIAClientError.macroBufferTooSmall, .noMacroBuffer.
    package static func macroWriteCommands(
        contents: [UInt8], bufferSize size: Int, replacing old: [UInt8]?
    ) throws(VIAClientError) -> [VIACommand] {
        guard size > 0 else { throw .noMacroBuffer }
        guard contents.count < size || (contents.count == size && contents.last == 0) else {
            throw .macroBufferTooSmall(needed: contents.count + (contents.last == 0 ? 0 : 1), available: size)
        }
        let image = contents + [UInt8](repeating: 0, count: size - contents.count)
        let last = size - 1
        let previous = old?.count == size ? old : nil
        let differing = (0..<last).filter { index in previous.map { $0[index] != image[index] } ?? true }
        let lastByteDirty = previous.map { $0[last] != 0 } ?? true
        guard !differing.isEmpty || lastByteDirty else { return [] }

        var commands: [VIACommand] = []
        if !differing.isEmpty {
            commands.append(.macroSetBuffer(offset: UInt16(last), data: [0xFF]))
        }
        var next = 0
        while next < differing.count {
            let start = differing[next]
            var end = next
            while end + 1 < differing.count && differing[end + 1] - start < VIACommand.maximumChunkLength {
                end += 1
            }
            commands.append(.macroSetBuffer(offset: UInt16(start), data: Array(image[start...differing[end]])))
            next = end + 1
        }
        commands.append(.macroSetBuffer(offset: UInt16(last), data: [0x00]))
        return commands
    }
}
