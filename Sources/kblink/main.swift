// kblink: the command line of kblinkd. Its commands live in KeyboardLinkCommandLine (`KBlinkCommand`).
import Dispatch
import KeyboardLinkCommandLine

#if canImport(Glibc)
    import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
if let status = KBlinkCommand.answerAtOnce(arguments) { exit(status.rawValue) }
Task { exit(await KBlinkCommand.run(arguments).rawValue) }
dispatchMain()
