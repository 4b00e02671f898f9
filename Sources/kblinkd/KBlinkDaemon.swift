import Glibc
import KBlinkAPI
import KeyboardLinkService
import KeyboardLinkSupport

/// `kblinkd`: parse options, then run the daemon until SIGTERM, reloading on SIGHUP.
@main
struct KBlinkDaemon {
    static let usage = """
        Usage: kblinkd [--bus system|session|ADDRESS] [--config PATH] [--state-dir PATH] [--print-address]
                       [--log-level error|warning|notice|info|debug]

        The kblink daemon: follows BlueZ, serves org.kblink1, pairs and configures Bluetooth keyboards.
        (To try kblink without Bluetooth hardware, run kblinkd-demo: the same daemon with a simulated BlueZ.)

          --bus BUS        the bus to serve on (default: system)
          --config PATH    configuration file (default /etc/kblink/kblinkd.conf; see kblinkd.conf.example)
          --state-dir PATH where profiles and caches live (default $STATE_DIRECTORY, else /var/lib/kblink)
          --print-address  print the bus address on the first line of standard output, then run
          --log-level L    override the configuration's LogLevel
        """

    static func main() async {
        DaemonRunner.takeOverSignals()
        let options: DaemonRunner.Options
        do {
            let parsed = try ParsedArguments(
                Array(CommandLine.arguments.dropFirst()), flags: DaemonRunner.flags.union(["--simulate"]),
                options: DaemonRunner.valueOptions)
            if parsed.has("--help") {
                print(usage)
                exit(0)
            }
            if parsed.has("--version") {
                print("kblinkd \(KBlink.version)")
                exit(0)
            }
            if parsed.has("--simulate") {
                throw ParsedArguments.UsageError(
                    "the simulated BlueZ is kblinkd-demo's: run 'kblinkd-demo' (same options) instead of 'kblinkd --simulate'"
                )
            }
            options = try DaemonRunner.parse(parsed)
        } catch {
            DaemonRunner.writeError("kblinkd: \(error)\n\n\(usage)")
            exit(2)
        }
        exit(await DaemonRunner.run(options))
    }
}
