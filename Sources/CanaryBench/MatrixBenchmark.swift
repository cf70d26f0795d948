import CanaryCLI
import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `canary-bench matrix [--runs N]`: wall time of the full matrix through URLSession.
///
/// Each run is a fresh scope (its own server and canaries) driving every built-in kind through
/// an ephemeral `URLSession` behind a logger of method and route; the median run is reported.
enum MatrixBenchmark {
  static let runsOption = Option<Int?>.integer(
    "--runs", help: "How many runs.", defaultValue: "5", range: 1...1000)

  static let command = CommandSpec(
    name: "matrix", abstract: "Wall time of the full matrix through URLSession.",
    discussion: """
      Each run is a fresh scope (its own server and canaries) driving every built-in kind through an \
      ephemeral URLSession behind a logger of method and route; the median run is reported.
      """,
    options: [runsOption],
    run: { parsed, io in await run(runs: parsed[runsOption] ?? 5, io: io) })

  static func run(runs: Int, io: CommandIO) async -> Int32 {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    var times: [Double] = []
    var last: MatrixResult?
    let clock = ContinuousClock()
    for index in 1...runs {
      var result: MatrixResult?
      let elapsed = await clock.measure {
        result = await CanaryTrap.matrix(
          title: "bench matrix \(index)",
          configuration: .init(captureStandardStreams: false, reportDirectory: nil)
        ) { trap in
          routeLogging(.urlSession(session), into: trap.memoryLog())
        }
      }
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      times.append(seconds)
      last = result
      io.writeOutput("run \(index): \(format(seconds)) s\n")
    }
    let sorted = times.sorted()
    let median = sorted[sorted.count / 2]
    let locations = last?.coverage.count ?? 0
    let verdict = last?.report?.verdict.rawValue ?? "?"
    io.writeOutput(
      "matrix: \(RequestKind.all.count) kinds, \(locations) canaries, verdict \(verdict); "
        + "median \(format(median)) s over \(runs) runs (min \(format(sorted[0])), max \(format(sorted[sorted.count - 1])))\n"
    )
    for problem in last?.report?.undelivered ?? [] {
      io.writeOutput("undelivered: \(problem.canary.location) \(problem.status)\n")
    }
    for error in last?.report?.errors ?? [] { io.writeOutput("error: \(error)\n") }
    return last?.report?.verdict == .clean ? ExitStatus.success : ExitStatus.leaks
  }

  /// A safe logger: the method and the route (first two path segments) only.
  private static func routeLogging(_ base: Transport, into log: MemoryLog) -> Transport {
    Transport { request in
      let route = "/" + (request.url?.path ?? "").split(separator: "/").prefix(2).joined(separator: "/")
      log.write("\(request.httpMethod ?? "GET") \(route)")
      return try await base.send(request)
    }
  }

  private static func format(_ seconds: Double) -> String {
    String(format: "%.3f", seconds)
  }
}
