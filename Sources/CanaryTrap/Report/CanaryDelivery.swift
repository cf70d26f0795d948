/// Whether a planted canary is proven to have travelled through the transport.
public struct CanaryDelivery: Sendable, Hashable {
  /// The canary.
  public var canary: Canary
  /// What the proof found.
  public var status: Status
  /// Where in the user's code the canary was planted (the `canary(_:at:)` call, or the
  /// `runMatrix` call for matrix canaries), when known.
  public var plantedAt: ReportSourceLocation?

  /// The outcome of a delivery check.
  public enum Status: Sendable, Hashable {
    /// The server received it (request side) or the app received it (response side).
    case delivered
    /// It never arrived; the reason says what dropped it.
    case undelivered(reason: String)
  }

  /// Creates a delivery record.
  package init(canary: Canary, status: Status) {
    self.canary = canary
    self.status = status
  }

  /// Whether the canary arrived.
  public var isDelivered: Bool { status == .delivered }
}
