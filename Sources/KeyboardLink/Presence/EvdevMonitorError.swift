import Glibc

/// Why the evdev monitor could not start.
package enum EvdevMonitorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `inotify_init1` failed (too many inotify instances, or no inotify in this kernel).
    case inotifyUnavailable(errno: Int32)
    /// `inotify_add_watch` failed on the directory (missing, or not readable).
    case cannotWatch(path: String, errno: Int32)

    package var description: String {
        switch self {
        case .inotifyUnavailable(let code):
            return "cannot start inotify: \(Self.message(code)); raise fs.inotify.max_user_instances if it is exhausted"
        case .cannotWatch(let path, let code):
            return "cannot watch \(path) for input devices: \(Self.message(code)); check that it exists and is readable"
        }
    }

    private static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
