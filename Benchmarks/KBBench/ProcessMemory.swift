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
    /// Proportional set size (`/proc/PID/smaps_rollup`): shared pages divided among the processes mapping them.
    var proportionalKiB = 0
    /// Unique set size: pages only this process maps (`Private_Clean` + `Private_Dirty`).
    var uniqueKiB = 0
    /// Resident KiB per mapped file (the executable, each shared library), largest first; anonymous memory is
    /// `[anon]`, the heap `[heap]`, thread stacks `[stack]` and the others by their `/proc/PID/maps` names.
    var residentByMapping: [(name: String, kib: Int)] = []

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
        var memory = ProcessMemory(
            residentKiB: resident, peakResidentKiB: peak, anonymousKiB: fields["RssAnon"] ?? 0,
            fileKiB: fields["RssFile"] ?? 0, threads: fields["Threads"] ?? 0,
            sharedSwiftRuntime: maps.contains("libswiftCore.so"))
        let rollup = Self.fields(readText("/proc/\(pid)/smaps_rollup") ?? "")
        memory.proportionalKiB = rollup["Pss"] ?? 0
        memory.uniqueKiB = (rollup["Private_Clean"] ?? 0) + (rollup["Private_Dirty"] ?? 0)
        memory.residentByMapping = residentByMapping(readText("/proc/\(pid)/smaps") ?? "")
        return memory
    }

    /// The `Name: value kB` lines of a `/proc` file, by name.
    private static func fields(_ text: String) -> [String: Int] {
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first
                .flatMap { Int($0) }
            if let value { fields[String(line[..<colon])] = value }
        }
        return fields
    }

    /// Sums `Rss:` of `/proc/PID/smaps` per mapping name (the file's base name, or `[anon]` for unnamed mappings).
    private static func residentByMapping(_ smaps: String) -> [(name: String, kib: Int)] {
        var totals: [String: Int] = [:]
        var current = "[anon]"
        for line in smaps.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = words.first else { continue }
            if first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                // A mapping header: address range, permissions, offset, device, inode, then the name if any.
                let name = words.count >= 6 ? words[5...].joined(separator: " ") : "[anon]"
                current = name.split(separator: "/").last.map(String.init) ?? name
            } else if first == "Rss:", words.count >= 2, let kib = Int(words[1]) {
                totals[current, default: 0] += kib
            }
        }
        return totals.filter { $0.value > 0 }.map { (name: $0.key, kib: $0.value) }.sorted { $0.kib > $1.kib }
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
