import Foundation

/// The leaks a codebase already has and accepts for now, kept in a file so a project that leaks
/// today can adopt CanaryTrap gradually: runs fail only on leaks the baseline does not list.
///
/// ```json
/// { "version": 1,
///   "knownLeaks": [ { "location": "request.url.query[token]", "source": "file:app.log",
///                     "encoding": "percent", "reason": "legacy logger, fixed by #123" },
///                   { "kind": "undelivered", "location": "response.finalURL",
///                     "reason": "the client's response has no URL" } ] }
/// ```
/// Each entry names its leak by stable names only and says why it is accepted: the canary's
/// location, the source it leaked into and a reason are required (an entry without a location or a
/// source would accept new leaks too); the encoding is optional and narrows the entry to one
/// encoding chain. `canary baseline` writes one; `canary scan --baseline` and
/// ``CanaryTrap/Configuration/knownLeaks`` read one.
public struct LeakBaseline: Sendable, Hashable {
  /// The baseline format this library writes and reads.
  package static let currentVersion = 1
  /// The most entries a baseline may hold; a longer file is refused rather than cut.
  package static let maximumEntries = 10_000

  /// The accepted leaks, in file order.
  public var knownLeaks: [KnownLeak]

  /// Creates a baseline of `knownLeaks`.
  package init(knownLeaks: [KnownLeak]) { self.knownLeaks = knownLeaks }

  /// A baseline accepting every leak of `report`, one entry per distinct location, source and
  /// encoding, sorted; `sourceName` names each finding's source (by default as reported).
  package init(accepting report: LeakReport, reason: String) {
    self.init(accepting: report, reason: reason, sourceName: { $0.source })
  }

  /// A baseline accepting every leak of `report`, naming each source with `sourceName`, and
  /// every location the report says was not delivered (``KnownLeak/undelivered(_:reason:)``,
  /// its reason followed by the run's).
  package init(accepting report: LeakReport, reason: String, sourceName: (LeakFinding) -> String) {
    var seen = Set<KnownLeak>()
    var leaks: [KnownLeak] = []
    for finding in report.findings {
      let leak = KnownLeak(
        location: finding.canary.location, source: sourceName(finding), encoding: finding.encoding,
        reason: reason)
      if seen.insert(leak).inserted { leaks.append(leak) }
    }
    var undeliveredLocations = Set<String>()
    for delivery in report.undelivered
    where undeliveredLocations.insert(delivery.canary.location.description).inserted {
      let why = Self.runReasonSuffix(delivery.reason ?? "unknown reason")
      leaks.append(.undelivered(delivery.canary.location, reason: reason + why))
    }
    knownLeaks = leaks.sorted {
      ($0.location?.description ?? "", $0.source ?? "", $0.encoding ?? "")
        < ($1.location?.description ?? "", $1.source ?? "", $1.encoding ?? "")
    }
  }

  /// What an undelivered entry written from a run adds after its reason: the run's own reason,
  /// ` (undelivered: …)`.
  package static func runReasonSuffix(_ runReason: String) -> String { " (undelivered: \(runReason))" }

  /// Reads a baseline file (up to 16 MiB), with an error naming the file, line and column, or
  /// entry at fault.
  public init(contentsOf url: URL) throws {
    try self.init(contentsOfPath: Array(url.path.utf8))
  }

  /// Reads a baseline from a path given as the system's bytes.
  package init(contentsOfPath path: [UInt8]) throws {
    let name = path.withUnsafeBufferPointer { Excerpt.render($0) }
    let bytes: [UInt8]
    do {
      bytes = try ManifestFile.read(path: path, name: name, what: "a baseline is a small JSON file")
    } catch ManifestError.unreadable(_, let reason) {
      throw BaselineError(file: name, reason: "cannot be read: \(reason)")
    }
    do {
      self = try LeakBaseline(jsonData: Data(bytes))
    } catch let error as BaselineError {
      throw BaselineError(file: name, reason: error.reason)
    }
  }

  /// Decodes a baseline from JSON bytes.
  package init(jsonData data: Data) throws {
    do {
      try ManifestDecoding.checkUTF8(data)
    } catch ManifestError.invalidUTF8(let offset, let line, let column) {
      throw BaselineError(
        reason: "is not UTF-8: invalid byte at line \(line), column \(column) (byte offset \(offset))")
    }
    let root: JSONValue
    do {
      root = try JSONValue.read(data)
    } catch {
      let reason = ManifestDecoding.syntaxError(in: data) ?? ManifestDecoding.describe(error)
      throw BaselineError(reason: "is not valid JSON: \(reason)")
    }
    guard case .object(let fields) = root else { throw BaselineError(reason: "must be a JSON object") }
    for key in fields.keys where !["version", "knownLeaks", "tool"].contains(key) {
      throw BaselineError(reason: "has an unknown field \"\(key)\" (expected version and knownLeaks)")
    }
    guard case .number(let number)? = fields["version"], let version = Int(exactly: number) else {
      throw BaselineError(reason: "needs \"version\": \(Self.currentVersion)")
    }
    guard version == Self.currentVersion else {
      throw BaselineError(
        reason: "has version \(version); this CanaryTrap reads version \(Self.currentVersion)")
    }
    guard case .array(let entries)? = fields["knownLeaks"] else {
      throw BaselineError(reason: "needs \"knownLeaks\": an array of entries")
    }
    guard entries.count <= Self.maximumEntries else {
      throw BaselineError(
        reason: "holds \(entries.count) entries; a baseline may hold at most \(Self.maximumEntries)")
    }
    knownLeaks = try entries.enumerated().map { index, entry in try Self.readEntry(entry, index: index) }
    try Self.refuseDuplicates(knownLeaks)
  }

  /// Refuses two entries with the same location, source and encoding: the first would accept
  /// every finding, and each repeat would be reported stale (10,000 copies printed 9,999 stale
  /// lines). The error names the first repeat and counts them all.
  private static func refuseDuplicates(_ leaks: [KnownLeak]) throws {
    var first: [String: Int] = [:]
    var repeats: [(index: Int, of: Int)] = []
    for (index, leak) in leaks.enumerated() {
      if let earlier = first[leak.baselineKey] {
        repeats.append((index, earlier))
      } else {
        first[leak.baselineKey] = index
      }
    }
    guard let firstRepeat = repeats.first else { return }
    throw BaselineError(
      reason:
        "knownLeaks[\(firstRepeat.index)] repeats knownLeaks[\(firstRepeat.of)] (\(leaks[firstRepeat.index])): "
        + "\(repeats.count) entr\(repeats.count == 1 ? "y repeats" : "ies repeat") an earlier one with the same "
        + "location, source and encoding; keep one of each")
  }

  private static func readEntry(_ entry: JSONValue, index: Int) throws -> KnownLeak {
    guard case .object(let fields) = entry else {
      throw BaselineError(reason: "knownLeaks[\(index)] must be an object")
    }
    var text: [String: String] = [:]
    for (key, value) in fields {
      guard ["kind", "location", "source", "encoding", "reason"].contains(key) else {
        throw BaselineError(
          reason:
            "knownLeaks[\(index)] has an unknown field \"\(key)\" (expected kind, location, source, encoding,"
            + " reason)")
      }
      guard case .string(let string) = value, !string.isEmpty else {
        throw BaselineError(reason: "knownLeaks[\(index)].\(key) must be a non-empty string")
      }
      text[key] = string
    }
    var leak = KnownLeak(
      location: text["location"].map { CanaryLocation($0) }, source: text["source"],
      encoding: text["encoding"],
      reason: text["reason"])
    switch text["kind"] {
    case nil, "leak": break
    case "undelivered":
      leak.isUndelivered = true
      for key in ["source", "encoding"] where text[key] != nil {
        throw BaselineError(
          reason:
            "knownLeaks[\(index)] is undelivered and has \"\(key)\": an undelivered canary leaks nowhere")
      }
    case let kind?:
      throw BaselineError(
        reason: "knownLeaks[\(index)].kind is \"\(kind)\"; expected \"leak\" (the default) or \"undelivered\""
      )
    }
    let required = leak.isUndelivered ? ["location", "reason"] : ["location", "source", "reason"]
    let missing = required.filter { text[$0] == nil }
    guard missing.isEmpty else {
      let fields = missing.map { "\"\($0)\"" }.joined(separator: " and ")
      throw BaselineError(
        reason:
          leak.isUndelivered
          ? "knownLeaks[\(index)] lacks \(fields): an undelivered entry names the canary's \"location\" and a"
            + " \"reason\" (\(entryProblem(leak) ?? "say why it cannot be delivered"))"
          : "knownLeaks[\(index)] lacks \(fields): every entry names the canary's \"location\", the"
            + " \"source\" it leaked into and a \"reason\" (\(entryProblem(leak) ?? "say why the leak is accepted"))"
      )
    }
    return leak
  }

  /// What an entry that does not name both a canary's location and a source would wrongly
  /// accept, or `nil` for an entry that names both. Such an entry is refused in a file and
  /// reported as an error in ``CanaryTrap/Configuration/knownLeaks``.
  package static func entryProblem(_ leak: KnownLeak) -> String? {
    if leak.isUndelivered {
      return leak.location == nil ? "without a location it would accept every undelivered canary" : nil
    }
    return switch (leak.location, leak.source) {
    case (nil, nil): "it would accept every leak"
    case (nil, let source?): "without a location it would accept every canary leaking into \"\(source)\""
    case (let location?, nil):
      "without a source it would accept the canary at \(location) leaking into any sink"
    case (_?, _?): nil
    }
  }

  /// The baseline as pretty-printed JSON with sorted keys, ending in a newline.
  package func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(Document(self))
    data.append(0x0A)
    return data
  }

  private struct Document: Encodable {
    struct Entry: Encodable {
      /// `undelivered` for a known undelivered canary; absent for a leak, as in older files.
      let kind: String?
      let location: String?
      let source: String?
      let encoding: String?
      let reason: String?
    }
    let version = LeakBaseline.currentVersion
    let knownLeaks: [Entry]

    init(_ baseline: LeakBaseline) {
      knownLeaks = baseline.knownLeaks.map {
        Entry(
          kind: $0.isUndelivered ? "undelivered" : nil, location: $0.location?.description, source: $0.source,
          encoding: $0.encoding, reason: $0.reason)
      }
    }
  }
}

/// A baseline file that cannot be used, saying which file and what is wrong with it.
package struct BaselineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file, when known.
  package var file: String?
  /// What is wrong, as the end of a sentence starting with the file's name.
  package var reason: String

  /// Creates an error about `file`.
  package init(file: String? = nil, reason: String) {
    self.file = file
    self.reason = reason
  }

  /// `baseline b.json is not valid JSON: … line 3, column 7`.
  package var description: String { "baseline \(file.map { "\($0) " } ?? "")\(reason)" }
}
