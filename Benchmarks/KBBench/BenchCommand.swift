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
        func value() -> Int? {
            index += 1
            guard index < arguments.count, let number = Int(arguments[index]), number > 0 else { return nil }
            return number
        }
        while index < arguments.count {
            let argument = arguments[index]
            let parsed: Int?
            switch argument {
            case "roundtrip", "managed-objects", "all":
                name = argument
                parsed = 1
            case "-h", "--help":
                print(usage)
                return 0
            case "--rounds": parsed = value().map { roundTrip.rounds = $0; return $0 }
            case "--calls": parsed = value().map { roundTrip.sequentialCalls = $0; return $0 }
            case "--pipelined-calls": parsed = value().map { roundTrip.pipelinedCalls = $0; return $0 }
            case "--in-flight": parsed = value().map { roundTrip.inFlight = $0; return $0 }
            case "--pairs":
                index += 1
                let pairs = index < arguments.count ? RoundTripBenchmark.parsePairs(arguments[index]) : nil
                if let pairs { roundTrip.pairs = pairs }
                parsed = pairs == nil ? nil : 1
            case "--sequential-only":
                roundTrip.sequentialOnly = true
                parsed = 1
            case "--devices": parsed = value().map { managedObjects.devices = $0; return $0 }
            case "--iterations": parsed = value().map { managedObjects.iterations = $0; return $0 }
            default: parsed = nil
            }
            guard parsed != nil else {
                print("kblink-bench: cannot use '\(argument)' here (a positive number is expected after options)")
                print(usage)
                return 2
            }
            index += 1
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
