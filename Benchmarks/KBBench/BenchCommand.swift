import Glibc
import KeyboardLink

/// Parses the command line, prints the machine, runs the chosen benchmarks and prints their tables.
enum BenchCommand {
    static let usage = """
        usage: kblink-bench [roundtrip|managed-objects|all] [options]
          roundtrip        method-call round trips/s, Swift pair vs C reference pair (and mixed pairs)
          managed-objects  time per GetManagedObjects reply of BlueZ-like devices
          all              both (default)
        options:
          --rounds N             roundtrip rounds per configuration (5)
          --calls N              roundtrip calls per round with one in flight (3000)
          --pipelined-calls N    roundtrip calls per round with many in flight (12000)
          --in-flight N          outstanding calls in the concurrent mode (64)
          --pairs LIST           roundtrip client-server pairs, e.g. swift-swift,c-c (all four)
          --sequential-only      roundtrip with one call in flight only (for profiling)
          --devices N            managed-objects devices (1000)
          --iterations N         managed-objects timed replies (30)
        Build with -c release; a debug build's numbers mean nothing.
        """

    static func run(_ arguments: [String]) async -> Int32 {
        var roundTrip = RoundTripBenchmark()
        var managedObjects = ManagedObjectsBenchmark()
        var name = "all"
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let operand = index < arguments.count ? arguments[index] : ""
            switch argument {
            case "roundtrip", "managed-objects", "all":
                name = argument
                continue
            case "-h", "--help":
                print(usage)
                return 0
            case "--sequential-only":
                roundTrip.sequentialOnly = true
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
            return 0
        } catch {
            print("kblink-bench: \(error)")
            return 1
        }
    }
}
