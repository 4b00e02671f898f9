import Glibc

// kblink-bench: `swift run -c release kblink-bench [roundtrip|managed-objects|all] [options]`; `--help` lists them.
ChildrenStopper.install()
let status = await BenchCommand.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
