import CanaryTrap
import CanaryTrapExamples
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One example app the demo runs the full matrix against: the sinks that fit it, and the verdict
/// its design implies.
struct DemoScenario: Sendable {
  /// What the example's design implies about the run.
  enum Expectation: Sendable, Hashable {
    /// The example leaks; at least these locations must leak and these must not.
    case leaks(at: [CanaryLocation], notAt: [CanaryLocation])
    /// The example is clean with every canary delivered.
    case clean
  }

  /// How a scenario's example writes what it prints.
  enum PrintDestination: Sendable {
    /// To the process's standard output, scanned through the scope's standard-stream capture.
    case standardOutput
    /// To a memory log named `stdout`, without capturing the process's streams: for tests, whose
    /// parallel neighbours share those streams.
    case memoryLog
  }

  /// Whether the example has a WebSocket variant, so the demo runs ``RequestKind/webSocket`` on it.
  enum WebSocketSupport: Sendable, Hashable {
    /// The example's WebSocket chat client runs the WebSocket kinds with the rest.
    case runs
    /// The example has no WebSocket client; the demo does not run the WebSocket kinds on it and
    /// says so with `reason`, never showing it clean there.
    case notRun(reason: String)
  }

  /// A short identifier, such as `printing-logger`.
  let name: String
  /// The line the demo prints above the example's matrix.
  let title: String
  /// The verdict the example's design implies.
  let expectation: Expectation
  /// Whether the WebSocket kinds run on this example.
  var webSocket: WebSocketSupport = .notRun(reason: "it has no WebSocket client")
  /// Runs the matrix in a fresh scope and returns the scope's report.
  let run: @Sendable (_ kinds: [RequestKind], _ printing: PrintDestination) async -> LeakReport

  /// Whether `report` matches the expectation, and if not, why.
  func check(_ report: LeakReport) -> (matches: Bool, reasons: [String]) {
    var reasons: [String] = []
    let leaked = Set(report.leakedLocations)
    switch expectation {
    case .clean:
      if !report.isClean { reasons.append("expected clean, got \(report.verdictLine)") }
      if !report.undelivered.isEmpty {
        reasons.append("\(report.undelivered.count) canaries undelivered")
      }
    case .leaks(let expected, let safe):
      if report.verdict != .leaky { reasons.append("expected leaks, got \(report.verdictLine)") }
      // A location of a kind not run (the WebSocket ones, in a grid run without them) is not planted.
      let planted = Set(report.canaries.map(\.location))
      for location in expected where planted.contains(location) && !leaked.contains(location) {
        reasons.append("expected a leak at \(location), found none")
      }
      for location in safe where leaked.contains(location) {
        reasons.append("expected no leak at \(location), found one")
      }
    }
    return (reasons.isEmpty, reasons)
  }
}
