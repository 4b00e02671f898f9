import Dispatch
import Glibc

/// Stops the bench's children (the private dbus-daemons, kblinkd, kblinkd-demo, the BlueZ mocks) when the bench
/// itself is told to stop with SIGTERM or SIGINT, so that `kill` or `timeout` on a bench holding a daemon
/// (`--hold-seconds`) leaves nothing behind. Every child is spawned with SIGTERM and SIGINT at their default
/// actions (`ChildProcess`, `PrivateBusDaemon`), so ignoring them here changes nothing for the children.
enum ChildrenStopper {
    /// The signal sources; kept for the life of the process. Written only by ``install()``, which `main` calls once
    /// before anything runs concurrently, and never read: no data race.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Installs the handlers; call once, before any child starts.
    static func install() {
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stopChildren()
                // The shell's status for a process ended by the signal (the signal itself may be blocked in
                // every thread: the runtime's threads block what dispatch's sources handle).
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// SIGTERM to every direct child, SIGKILL to those still there after a second; then reaps them.
    static func stopChildren() {
        let children = directChildren()
        for pid in children { kill(pid, SIGTERM) }
        for _ in 0..<20 {
            if children.allSatisfy({ kill($0, 0) != 0 || isZombie($0) }) { break }
            usleep(50_000)
        }
        for pid in children where kill(pid, 0) == 0 && !isZombie(pid) { kill(pid, SIGKILL) }
        for pid in children { waitpid(pid, nil, WNOHANG) }
    }

    /// The process's children, from `/proc/self/task/*/children` (a child belongs to the thread that spawned it).
    static func directChildren() -> [pid_t] {
        var children: [pid_t] = []
        guard let tasks = opendir("/proc/self/task") else { return [] }
        defer { closedir(tasks) }
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.first?.isNumber == true else { continue }
            children += read("/proc/self/task/\(name)/children").split { $0 == " " || $0 == "\n" }.compactMap {
                pid_t($0)
            }
        }
        return children
    }

    private static func isZombie(_ pid: pid_t) -> Bool {
        // /proc/PID/stat: "pid (comm) S ..."; the state follows the last ')'.
        let stat = read("/proc/\(pid)/stat")
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingPrefix(" ").first == "Z"
    }

    private static func read(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
