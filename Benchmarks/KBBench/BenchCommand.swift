import Glibc
import KeyboardLink

/// Parses the command line, prints the machine, runs the chosen benchmarks and prints their tables.
enum BenchCommand {
    static let usage = """
        usage: kblink-bench [roundtrip|managed-objects|daemon|startup|layout|keymap|firmware|push|fairness|health|all] [options]
          roundtrip        method-call round trips/s, Swift pair vs C reference pair (and mixed pairs)
          managed-objects  time per GetManagedObjects reply of BlueZ-like devices
          daemon           kblinkd start-up to READY=1, kblink list vs bluetoothctl devices, kblinkd memory
                           (runs .build/release/kblinkd and kblink: 'swift build -c release' first)
          startup          kblink --version and kblink status (against kblinkd-demo) as whole processes, side by
                           side with busctl --version (runs .build/release/kblink and kblinkd-demo)
          layout           layout-core events per second (show/change/hide with a focused field)
          keymap           keymap edits, undos and redos; profile save and load
          firmware         kblink info from the cache; a cold GATT refresh at 30 ms per read
          push             keymap push of a full layer to the simulated VIA and ZMK Studio keyboards at 7.5 ms
                           per round trip: writes and bytes against the protocol minimum, wall time
          fairness         another connection's Get while one client sends the worst single calls (a 100,000-field
                           ResolveInsets, 1 MiB arguments, an 8 MB ImportProfile) to kblinkd-demo
                           (runs .build/release/kblinkd-demo: 'swift build -c release' first)
          health           reconnect time: link up to the keyboard's input device, healthy and healed (LE by
                           reconnect, classic by ConnectProfile), on the simulator with its simulated input devices
          all              every benchmark (default)
        options:
          --rounds N             roundtrip rounds per configuration (5)
          --calls N              roundtrip calls per round with one in flight (3000)
          --pipelined-calls N    roundtrip calls per round with many in flight (12000)
          --in-flight N          outstanding calls in the concurrent mode (64)
          --pairs LIST           roundtrip client-server pairs, e.g. swift-swift,swift@conn-swift,c-c (all six;
                                 swift@conn: the Swift client on its connection's executor; swiftinv: the Swift
                                 server with a MethodInvocation handler instead of a typed one)
          --sequential-only      roundtrip with one call in flight only (for profiling)
          --devices N            managed-objects devices (1000)
          --iterations N         managed-objects timed replies (30)
          --keyboards N          daemon: simulated keyboards for start-up, list and memory (1000)
          --memory-keyboards N   daemon: keyboards for the memory goal (100)
          --startups N           daemon: timed starts after a first one (5)
          --lists N              daemon: timed runs of each list command (10)
          --hold-seconds N       daemon: after the start-ups, print kblinkd's pid and bus and wait N s (profiling)
          --startup-rounds N     startup: timed rounds, each command once per round (60)
          --packaged-kblink PATH startup: also time this kblink (an absolute path; the Debian package's, with the
                                 Swift runtime linked statically: dpkg-deb -x build/deb/kblink_*.deb DIR)
          --layout-rounds N      layout: timed rounds per row (7)
          --edits N              keymap: edits, undos and redos per round (10000)
          --edit-rounds N        keymap: timed edit rounds (5)
          --profile-rounds N     keymap: timed saves and loads of the profile without draft (30)
          --push-rounds N        push: timed pushes per keyboard (5)
          --round-trip-us N      push: simulated round trip in microseconds (7500)
          --fairness-rounds N    fairness: calls of each hostile kind (5)
          --health-rounds N      health: reconnects measured (10; half as many heals)
        Build with -c release; a debug build's numbers mean nothing.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        var roundTrip = RoundTripBenchmark()
        var managedObjects = ManagedObjectsBenchmark()
        var daemon = DaemonBenchmark()
        var startup = StartupBenchmark()
        var layout = LayoutBenchmark()
        var keymap = KeymapBenchmark()
        let firmware = FirmwareBenchmark()
        var push = PushBenchmark()
        var fairness = FairnessBenchmark()
        var health = HealthBenchmark()
        var name = "all"
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let operand = index < arguments.count ? arguments[index] : ""
            switch argument {
            case "roundtrip", "managed-objects", "daemon", "startup", "layout", "keymap", "firmware", "push",
                "fairness", "health", "all":
                name = argument
                continue
            case "-h", "--help":
                print(usage)
                return 0
            case "--sequential-only":
                roundTrip.sequentialOnly = true
                continue
            case "--packaged-kblink":
                guard operand.hasPrefix("/") else { break }
                startup.packagedKBlink = operand
                index += 1
                continue
            case "--pairs":
                guard let pairs = RoundTripBenchmark.parsePairs(operand) else { break }
                roundTrip.pairs = pairs
                index += 1
                continue
            default:
                guard let number = Int(operand), number > 0 else { break }
                var known = true
                switch argument {
                case "--rounds": roundTrip.rounds = number
                case "--calls": roundTrip.sequentialCalls = number
                case "--pipelined-calls": roundTrip.pipelinedCalls = number
                case "--in-flight": roundTrip.inFlight = number
                case "--devices": managedObjects.devices = number
                case "--iterations": managedObjects.iterations = number
                case "--keyboards": daemon.keyboards = number
                case "--memory-keyboards": daemon.memoryKeyboards = number
                case "--startups": daemon.startups = number
                case "--lists": daemon.lists = number
                case "--hold-seconds": daemon.holdSeconds = number
                case "--startup-rounds": startup.rounds = number
                case "--layout-rounds": layout.rounds = number
                case "--edits": keymap.edits = number
                case "--edit-rounds": keymap.rounds = number
                case "--profile-rounds": keymap.profileRounds = number
                case "--push-rounds": push.rounds = number
                case "--round-trip-us": push.roundTrip = .microseconds(number)
                case "--fairness-rounds": fairness.rounds = number
                case "--health-rounds": health.rounds = number
                default: known = false
                }
                guard known else { break }
                index += 1
                continue
            }
            print("kblink-bench: unknown argument '\(argument)', or it needs a positive number or a pair list after it")
            print(usage)
            return 2
        }

        #if DEBUG
            let build = "debug (numbers are not meaningful: use swift run -c release kblink-bench)"
        #else
            let build = "release"
        #endif
        print("kblink-bench: \(Machine.current().description); build \(build)\n")
        do {
            if name == "roundtrip" || name == "all" {
                print(try await roundTrip.run())
            }
            if name == "managed-objects" || name == "all" {
                print(try await managedObjects.run())
            }
            if name == "daemon" || name == "all" {
                print(try await daemon.run())
            }
            if name == "startup" || name == "all" {
                print(try await startup.run())
            }
            if name == "layout" || name == "all" {
                print(try await layout.run())
            }
            if name == "keymap" || name == "all" {
                print(try await keymap.run())
            }
            if name == "firmware" || name == "all" {
                print(try await firmware.run())
            }
            if name == "push" || name == "all" {
                print(try await push.run())
            }
            if name == "fairness" || name == "all" {
                print(try await fairness.run())
            }
            if name == "health" || name == "all" {
                print(try await health.run())
            }
            return 0
        } catch {
            print("kblink-bench: \(error)")
            return 1
        }
    }
}
