import Foundation

extension CanaryTrap {
  /// How a scope scans, which sinks it reads, and where it writes its report.
  public struct Configuration: Sendable {
    /// The encodings and fragment length the scanner searches for.
    package var scanOptions: ScanOptions
    /// Whether the scope also scans what the process writes to standard output and error.
    public var captureStandardStreams: Bool
    /// Sinks read at the end of every run, in addition to those added to the scope; every scope
    /// reads them through its own window, so one configuration may serve tests running in parallel.
    public var sinks: [any LeakSink]
    /// A directory the scope writes its report to; `nil` writes none.
    public var reportDirectory: URL?
    /// How long one request of ``CanaryTrap/runMatrix(through:kinds:fileID:filePath:line:column:)`` may take before it is
    /// cancelled and reported (the run is then inconclusive); 15 seconds unless told otherwise.
    public var requestDeadline: Duration
    /// How long the whole scope may take, counted from the scope's start in time the process
    /// could run (stalls of every cooperative thread are given back, up to four times this): matrix
    /// requests still running then are cancelled and requests not yet sent are not sent, each
    /// reported; a test body still running shortly after it makes the run inconclusive and stops
    /// the scope's server (see <doc:Sinks>); 3 minutes unless told otherwise.
    public var scopeDeadline: Duration
    /// Leaks every scope of this configuration accepts, typically read from a baseline file with
    /// ``LeakBaseline/init(contentsOf:)``: the test adapters summarise matching findings as known
    /// issues instead of failing, and fail on every other leak. Each entry must name a location and
    /// a source; one that does not accepts nothing and makes every scope inconclusive, saying why.
    public var knownLeaks: [KnownLeak] = []
    /// The configuration of the scope's loopback server (the package's tests give a port in use
    /// to make a scope that cannot start).
    package var server = LoopbackServer.Configuration()

    /// The entries of ``knownLeaks`` that name both a location and a source: the only ones used.
    package var usableKnownLeaks: [KnownLeak] { knownLeaks.filter { LeakBaseline.entryProblem($0) == nil } }

    /// Creates a configuration; the report directory defaults to `CANARY_TRAP_REPORT_DIR`.
    public init(
      captureStandardStreams: Bool = true,
      sinks: [any LeakSink] = [],
      reportDirectory: URL? = Configuration.environmentReportDirectory,
      requestDeadline: Duration = .seconds(15),
      scopeDeadline: Duration = .seconds(180)
    ) {
      self.scanOptions = ScanOptions()
      self.captureStandardStreams = captureStandardStreams
      self.sinks = sinks
      self.reportDirectory = reportDirectory
      self.requestDeadline = requestDeadline
      self.scopeDeadline = scopeDeadline
    }

    /// The directory named by the `CANARY_TRAP_REPORT_DIR` environment variable, if set.
    public static var environmentReportDirectory: URL? {
      guard let path = ProcessInfo.processInfo.environment["CANARY_TRAP_REPORT_DIR"], !path.isEmpty
      else { return nil }
      return URL(fileURLWithPath: path, isDirectory: true)
    }
  }
}
