import Glibc

/// CPU time of single threads of this process, found by name: the Swift server's connection thread carries its
/// label, the C server's thread is named `kbref.server`. Read from `/proc/self/task/TID/schedstat`, whose first field
/// is the nanoseconds the thread spent on a CPU (exact, unlike the 10 ms ticks of `stat`).
enum ThreadCPU {
    /// The ids of this process's threads whose name (`comm`, at most 15 bytes) is `name`.
    static func threads(named name: String) -> [pid_t] {
        guard let directory = opendir("/proc/self/task") else { return [] }
        defer { closedir(directory) }
        var found: [pid_t] = []
        while let entry = readdir(directory) {
            let tidText = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let tid = pid_t(tidText), firstLine("/proc/self/task/\(tid)/comm") == name else { continue }
            found.append(tid)
        }
        return found
    }

    /// Nanoseconds thread `tid` of this process has spent on a CPU; nil when it cannot be read.
    static func nanoseconds(of tid: pid_t) -> Double? {
        guard let line = firstLine("/proc/self/task/\(tid)/schedstat"),
            let first = line.split(separator: " ").first
        else { return nil }
        return Double(first)
    }

    /// The first line of a small text file, without its newline.
    private static func firstLine(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = cText(buffer)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
