import Glibc

/// Bytes the C heap (glibc malloc, where Swift objects live) has handed out and not taken back, from
/// `malloc_info(3)`: system memory of every arena, minus its free chunks, plus mmapped chunks.
///
/// `mallinfo2` is not visible through the Glibc module, so `malloc_info` is looked up with `dlsym` (its signature
/// has only C-representable types) and its XML report parsed.
enum HeapUsage {
    private typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32

    /// Bytes in use now; nil when glibc's `malloc_info` is not available.
    static func bytesInUse() -> Int? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_info") else { return nil }
        let mallocInfo = unsafeBitCast(symbol, to: MallocInfo.self)
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        let result = mallocInfo(0, stream)
        fclose(stream)
        guard let buffer else { return nil }
        defer { free(buffer) }
        guard result == 0 else { return nil }
        let text = String(cString: buffer)
        // The totals over every arena follow the last </heap>.
        guard let totals = text.split(separator: "</heap>").last else { return nil }
        func value(_ element: String, _ type: String) -> Int? {
            for line in totals.split(separator: "\n") where line.hasPrefix("<\(element) type=\"\(type)\"") {
                guard let sizeStart = line.firstRange(of: "size=\"") else { return nil }
                return Int(line[sizeStart.upperBound...].prefix { $0 != "\"" })
            }
            return nil
        }
        guard let system = value("system", "current"), let fast = value("total", "fast"),
            let rest = value("total", "rest")
        else { return nil }
        return system - fast - rest + (value("total", "mmap") ?? 0)
    }
}
