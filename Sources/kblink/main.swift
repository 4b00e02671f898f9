// kblink: the command line of kblinkd. Its commands live in KeyboardLinkCommandLine (`KBlinkCommand`).
import KeyboardLinkCommandLine

#if canImport(Glibc)
    import Glibc
#endif

exit(await KBlinkCommand.run(Array(CommandLine.arguments.dropFirst())).rawValue)
