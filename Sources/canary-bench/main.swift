import CanaryBench
import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let status = await BenchTool.run(Array(CommandLine.arguments.dropFirst()), io: .standard)
exit(status)
