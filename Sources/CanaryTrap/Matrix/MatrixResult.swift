/// What a matrix run planted, which canaries arrived, and, once the scope's report is attached,
/// which sinks each location leaked into.
public struct MatrixResult: Sendable {
  /// What each kind planted and what failed while sending it.
  public struct KindRun: Sendable, Hashable {
    /// The kind's name.
    public var name: String
    /// The canaries the kind planted.
    public var canaries: [Canary]
    /// Requests the transport failed to send, one message each (for a kind that fails on
    /// purpose: requests whose failure never reached the app).
    public var errors: [String]
    /// How the kind's exchanges fail on purpose, or nil when they succeed.
    public var failure: ExchangeFailure? = nil
    /// For a kind that fails on purpose, how each request's failure reached the app, in order,
    /// such as `threw NSURLErrorDomain -1001` or `returned 503`.
    public var surfacedFailures: [String] = []
  }

  /// One planted location: its canary, whether it arrived, and where it leaked.
  package struct LocationCoverage: Sendable, Hashable {
    /// The kind that planted it.
    package var kind: String
    /// The canary planted there.
    package var canary: Canary
    /// Whether the canary was proven delivered.
    package var delivery: CanaryDelivery.Status
    /// The sinks (sources) it was found in, in report order without repeats; empty when clean
    /// or when no report is attached yet.
    package var foundIn: [String]
    /// The encodings it was found in, in report order without repeats.
    package var encodings: [String]

    /// The location planted.
    package var location: CanaryLocation { canary.location }
  }

  /// Every kind run, in the order given.
  public var kinds: [KindRun]
  /// The delivery of every canary the matrix planted, right after the run.
  package var deliveries: [CanaryDelivery]
  /// The scope's report, once attached with ``attaching(_:)``.
  public var report: LeakReport?

  /// Every planted location with its delivery and, if a report is attached, its findings.
  package var coverage: [LocationCoverage] {
    let finalDeliveries = report?.deliveries ?? deliveries
    let status = Dictionary(
      finalDeliveries.map { ($0.canary.value, $0.status) }, uniquingKeysWith: { a, _ in a })
    return kinds.flatMap { kind in
      kind.canaries.map { canary in
        let findings = report?.findings.filter { $0.canary.value == canary.value } ?? []
        return LocationCoverage(
          kind: kind.name, canary: canary,
          delivery: status[canary.value] ?? .undelivered(reason: "not checked"),
          foundIn: Self.distinct(findings.map(\.source)), encodings: Self.distinct(findings.map(\.encoding)))
      }
    }
  }

  /// Whether every planted canary was proven delivered.
  public var allDelivered: Bool { coverage.allSatisfy { $0.delivery == .delivered } }

  /// The canaries that were not proven delivered.
  public var undelivered: [CanaryDelivery] { (report?.deliveries ?? deliveries).filter { !$0.isDelivered } }

  /// This result with the scope's final report attached.
  public func attaching(_ report: LeakReport) -> MatrixResult {
    var result = self
    result.report = report
    return result
  }

  /// A plain-text table: one line per location with its delivery and the sinks it leaked into.
  public var coverageTable: String {
    coverage.map { row in
      let delivery: String
      switch row.delivery {
      case .delivered: delivery = "delivered"
      case .undelivered(let reason): delivery = "UNDELIVERED (\(reason))"
      }
      let found = row.foundIn.isEmpty ? "not found" : "found in \(row.foundIn.joined(separator: ", "))"
      return "\(row.kind)  \(row.location)  [\(row.canary.shape?.rawValue ?? "?")]  \(delivery)  \(found)"
    }.joined(separator: "\n")
  }

  private static func distinct(_ items: [String]) -> [String] {
    var seen = Set<String>()
    return items.filter { seen.insert($0).inserted }
  }
}
