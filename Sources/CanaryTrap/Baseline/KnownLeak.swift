/// A leak a test or a baseline accepts, for a component known to leak: findings it matches are
/// summarised instead of failing the run, and a known leak that no longer occurs is reported so
/// the acceptance can be tightened.
///
/// A leak is identified by names that are stable across runs: the canary's location, the sink
/// (source) it reached, and the chain of encodings it was found in; never a line number or a
/// temporary path.
public struct KnownLeak: Sendable, Hashable, CustomStringConvertible {
  /// The location whose canary may leak; nil accepts every location.
  public var location: CanaryLocation?
  /// The source it may leak into (a sink's name such as `stdout`, or a sink's prefix such as
  /// `file`, which covers `file:app.log`); nil accepts every source.
  public var source: String?
  /// The encoding chain it may be found in, such as `base64` or `percent>json-escape`; nil
  /// accepts every encoding.
  public var encoding: String?
  /// Why the leak is accepted, shown when it occurs.
  public var reason: String?
  /// Whether this accepts the canary at ``location`` never being delivered, instead of a leak:
  /// for a client that structurally cannot deliver it (see ``undelivered(_:reason:)``).
  package var isUndelivered = false

  /// Accepts leaks matching every given part; a part left nil accepts anything.
  package init(
    location: CanaryLocation? = nil, source: String? = nil, encoding: String? = nil, reason: String? = nil
  ) {
    self.location = location
    self.source = source
    self.encoding = encoding
    self.reason = reason
  }

  /// Accepts leaks of the canary planted at `location`, into `source` or anywhere.
  public static func at(_ location: CanaryLocation, in source: String? = nil) -> KnownLeak {
    KnownLeak(location: location, source: source)
  }

  /// Accepts the canary planted at `location` never being delivered, for `reason`, such as a
  /// client whose response type has no URL for a final-URL canary; it does not accept a leak.
  public static func undelivered(_ location: CanaryLocation, reason: String) -> KnownLeak {
    var known = KnownLeak(location: location, reason: reason)
    known.isUndelivered = true
    return known
  }

  /// Accepts every leak into `source`: a sink's name, or the prefix of a sink's files such as `file`.
  public static func into(_ source: String) -> KnownLeak {
    KnownLeak(location: nil, source: source)
  }

  /// Whether `finding` is one of the leaks this accepts.
  package func matches(_ finding: LeakFinding) -> Bool {
    matches(finding, sourceName: finding.source)
  }

  /// Whether `finding`, whose source is named `sourceName` (for instance relative to a root
  /// directory), is one of the leaks this accepts.
  package func matches(_ finding: LeakFinding, sourceName: String) -> Bool {
    if isUndelivered || !matches(finding.canary.location) { return false }
    if let source, sourceName != source, !sourceName.hasPrefix(source + ":") { return false }
    if let encoding, finding.encoding != encoding { return false }
    return true
  }

  /// Whether `delivery` is an undelivered canary this accepts.
  package func matches(_ delivery: CanaryDelivery) -> Bool {
    isUndelivered && !delivery.isDelivered && matches(delivery.canary.location)
  }

  /// Whether a canary planted at `planted` is one this names.
  private func matches(_ planted: CanaryLocation) -> Bool {
    // Locations compare by their stable string form: a location read back from a file may parse
    // into a different case (`custom`) than the one planted, with the same name.
    guard let location else { return true }
    return planted == location || planted.description == location.description
  }

  /// `request.url.query[session] in stdout`, `anything in file as base64`, `response.finalURL
  /// undelivered`.
  public var description: String {
    if isUndelivered { return "\(location.map { "\($0)" } ?? "any location") undelivered" }
    return "\(location.map { "\($0)" } ?? "anything") in \(source ?? "any source")"
      + (encoding.map { " as \($0)" } ?? "")
  }
}
