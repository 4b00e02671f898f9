import KeyboardLinkHostFix

#if canImport(Glibc)
    import Glibc
#endif

// kblink-fix-host: applies the fixes `kblink doctor --fix` chose, as root (started by pkexec through the polkit
// action org.kblink1.fix-host), and takes them back (`undo`). kblinkd never runs it: kblinkd stays unprivileged.
//
//   kblink-fix-host [--root DIR] apply FIX...    FIX as `kblink doctor --fix` names it (hid-apple-fnmode=2,
//                                                via-hidraw-access, ...)
//   kblink-fix-host [--root DIR] undo            removes exactly what the manifest records
//
// --root DIR works under DIR instead of / (tests run the helper on a fake root); refused for another user.

func fail(_ message: String, status: Int32 = 1) -> Never {
    let bytes = Array("kblink-fix-host: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var root = "/"
if arguments.first == "--root" {
    guard arguments.count >= 2, arguments[1].hasPrefix("/") else {
        fail("--root needs an absolute directory", status: 2)
    }
    root = arguments[1]
    arguments.removeFirst(2)
}
// Started for another user by pkexec, sudo, run0 or doas (each names that user: PKEXEC_UID, SUDO_UID, DOAS_USER), it
// works on / only: a root the user chose could lead root's writes through links anywhere.
if root != "/", ["PKEXEC_UID", "SUDO_UID", "DOAS_USER"].contains(where: { (name: String) in getenv(name) != nil }) {
    fail("--root is for tests, not under pkexec, sudo, run0 or doas", status: 2)
}
let fixer = HostFixer(root: root)
do {
    switch arguments.first {
    case "apply":
        let fixes = try arguments.dropFirst().map { argument in
            guard let fix = HostFix(argument: argument) else { throw HostFixer.Failure("unknown fix '\(argument)'") }
            return fix
        }
        guard !fixes.isEmpty else { fail("apply needs at least one fix", status: 2) }
        for line in try fixer.apply(fixes) { print(line) }
    case "undo":
        guard arguments.count == 1 else { fail("undo takes no argument", status: 2) }
        let lines = try fixer.undo()
        print(lines.isEmpty ? "nothing to undo: kblink doctor --fix wrote nothing here" : lines.joined(separator: "\n"))
    default:
        fail("usage: kblink-fix-host [--root DIR] apply FIX... | undo", status: 2)
    }
} catch {
    fail("\(error)")
}
