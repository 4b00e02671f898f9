import CReference
import Glibc

/// What the numbers were measured on, printed before every run.
struct Machine: Sendable {
    var processors: Int
    var cpuModel: String
    var kernel: String
    var libdbus: String
    var date: String
    /// The 1, 5 and 15 minute load averages: other work on a shared machine skews every figure.
    var load: String

    /// Reads `/proc/cpuinfo`, `uname` and libdbus's version.
    static func current() -> Machine {
        var model = "unknown"
        if let file = fopen("/proc/cpuinfo", "r") {
            defer { fclose(file) }
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0
            while getline(&line, &capacity, file) > 0, let line {
                let text = String(cString: line)
                if text.hasPrefix("model name"), let colon = text.firstIndex(of: ":") {
                    model = text[text.index(after: colon)...].trimmingCharacters()
                    break
                }
            }
            free(line)
        }
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var version = [CChar](repeating: 0, count: 32)
        kbref_libdbus_version(&version, version.count)
        let libdbus = version.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let date =
            "\(parts.tm_year + 1900)-" + String(parts.tm_mon + 1).leftPadded(2) + "-"
            + String(parts.tm_mday).leftPadded(2)
        var averages = [Double](repeating: 0, count: 3)
        let loadCount = getloadavg(&averages, 3)
        let load = averages.prefix(Int(max(0, loadCount))).map { Format.number($0, decimals: 2) }.joined(separator: " ")
        return Machine(
            processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model, kernel: kernel, libdbus: libdbus,
            date: date, load: load)
    }

    var description: String {
        "date \(date) (UTC), nproc \(processors), CPU \(cpuModel), Linux \(kernel), libdbus \(libdbus), "
            + "load average \(load)"
    }
}

extension StringProtocol {
    func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed())
    }

    func leftPadded(_ width: Int) -> String {
        count >= width ? String(self) : String(repeating: "0", count: width - count) + self
    }
}
