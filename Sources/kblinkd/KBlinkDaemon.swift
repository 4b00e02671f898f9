import Glibc
import KBlinkAPI
import KeyboardLinkDrivers
import KeyboardLinkService
import KeyboardLinkSupport

/// `kblinkd`: parse options, then run the daemon until SIGTERM, reloading on SIGHUP.
@main
struct KBlinkDaemon {
    static let usage = """
        Usage: kblinkd [--bus system|session|ADDRESS] [--config PATH] [--state-dir PATH] [--print-address]
                       [--log-level error|warning|notice|info|debug] [--grace-period SECONDS]

        The kblink daemon: follows BlueZ, serves org.kblink1, pairs and configures Bluetooth keyboards.
        (To try kblink without Bluetooth hardware, run kblinkd-demo: the same daemon with a simulated BlueZ.)

          --bus BUS        the bus to serve on (default: system)
          --config PATH    configuration file (default /etc/kblink/kblinkd.conf; see kblinkd.conf.example)
          --state-dir PATH where profiles and caches live (default $STATE_DIRECTORY, else /var/lib/kblink)
          --print-address  print the bus address on the first line of standard output, then run
          --log-level L    override the configuration's LogLevel
          --grace-period S override the configuration's [Presence] GracePeriod (seconds, such as 0.5)

        kblinkd --check-hidraw DESCRIPTOR
          For the udev rule 70-kblink-via.rules: exits 0 when a hidraw node with this report descriptor
          (/sys/class/hidraw/hidrawN/device/report_descriptor) is a VIA raw HID interface only (usage page 0xFF60, no
          key reports) that the group kblinkd may open, 1 otherwise; says why on standard error.
        """

    static func main() async {
        DaemonRunner.takeOverSignals()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--check-hidraw" {
            guard arguments.count == 2 else {
                DaemonRunner.writeError("kblinkd: --check-hidraw takes one path, the node's report_descriptor\n")
                exit(2)
            }
            let (granted, reason) = HIDRawAccessRule.decision(forDescriptorAt: arguments[1])
            DaemonRunner.writeError("kblinkd --check-hidraw: \(granted ? "grant" : "refuse"): \(reason)\n")
            exit(granted ? 0 : 1)
        }
        let options: DaemonRunner.Options
        do {
            let parsed = try ParsedArguments(
                arguments, flags: DaemonRunner.flags.union(["--simulate"]), options: DaemonRunner.valueOptions)
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
