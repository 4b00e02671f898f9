import Glibc

/// The memory figures of a process from `/proc/PID/status`, in KiB.
struct ProcessMemory: Sendable {
    /// Resident set now.
    var residentKiB: Int
    /// Peak resident set ("high water mark").
    var peakResidentKiB: Int
    /// Resident anonymous memory (heap, stacks).
    var anonymousKiB: Int
    /// Resident file-backed pages (the executable and shared libraries).
    var fileKiB: Int
    /// Threads.
    var threads: Int
    /// Whether the Swift runtime is a shared library in this process (a `swift build` without
    /// `--static-swift-stdlib`), which puts its pages in `fileKiB`.
    var sharedSwiftRuntime: Bool

    /// Reads `/proc/pid/status` and `/proc/pid/maps`.
    static func of(_ pid: pid_t) throws -> ProcessMemory {
        guard let status = readText("/proc/\(pid)/status") else { throw BenchError("cannot read /proc/\(pid)/status") }
        var fields: [String: Int] = [:]
        for line in status.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first
                .flatMap { Int($0) }
            if let value { fields[String(line[..<colon])] = value }
        }
        guard let resident = fields["VmRSS"], let peak = fields["VmHWM"] else {
            throw BenchError("no VmRSS/VmHWM in /proc/\(pid)/status")
        }
        let maps = readText("/proc/\(pid)/maps") ?? ""
        return ProcessMemory(
            residentKiB: resident, peakResidentKiB: peak, anonymousKiB: fields["RssAnon"] ?? 0,
            fileKiB: fields["RssFile"] ?? 0, threads: fields["Threads"] ?? 0,
            sharedSwiftRuntime: maps.contains("libswiftCore.so"))
    }

    /// This process's resident set now, in KiB.
    static func currentResidentKiB() -> Int {
        (try? of(getpid()).residentKiB) ?? 0
    }

    /// A whole small text file, nil when it cannot be read.
    static func readText(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Format {
    /// KiB as MiB with two decimals.
    static func mebibytes(_ kibibytes: Int) -> String {
        number(Double(kibibytes) / 1024, decimals: 2)
    }
}
