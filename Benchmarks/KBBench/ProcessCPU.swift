import Glibc

/// CPU time used by a process (every thread): this one from `getrusage`, another from `/proc/PID/stat`.
enum ProcessCPU {
    /// User plus system time of this process so far, in seconds.
    static func now() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// What `getrusage` says about this process (every thread) at one moment.
    struct Usage {
        /// User time, seconds.
        var user: Double
        /// System time, seconds.
        var system: Double
        /// Page faults served without I/O.
        var minorFaults: Double
        /// Times a thread gave up the CPU to wait (for I/O, a lock, a futex).
        var voluntarySwitches: Double
        /// Times a thread was preempted.
        var involuntarySwitches: Double

        /// This process's usage now.
        static func now() -> Usage {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Usage(
                user: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
                system: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
                minorFaults: Double(usage.ru_minflt), voluntarySwitches: Double(usage.ru_nvcsw),
                involuntarySwitches: Double(usage.ru_nivcsw))
        }

        /// The usage between `earlier` and this one, divided by `count` (per call).
        func since(_ earlier: Usage, per count: Int) -> Usage {
            let n = Double(max(1, count))
            return Usage(
                user: (user - earlier.user) / n, system: (system - earlier.system) / n,
                minorFaults: (minorFaults - earlier.minorFaults) / n,
                voluntarySwitches: (voluntarySwitches - earlier.voluntarySwitches) / n,
                involuntarySwitches: (involuntarySwitches - earlier.involuntarySwitches) / n)
        }
    }

    /// User plus system time of process `pid` so far, in seconds (clock-tick resolution, 10 ms here), or nil when
    /// it cannot be read.
    static func of(pid: pid_t) -> Double? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = cText(buffer)
        // The command name (field 2) may contain spaces; the fields after it start past the last ')'.
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state): utime is field 14, stime field 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
