import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Merges the per-test SARIF files a CI run writes into one log with one run, as GitHub code
/// scanning requires (it rejects more than one run per category).
package enum SARIFMerge {
  /// Why a merge failed: names the file and what is wrong with it.
  package struct Failure: Error, CustomStringConvertible {
    /// The sentence to show.
    package let description: String
  }

  /// The most files one merge reads.
  package static let maxFiles = 10_000

  /// Every `*.sarif` file directly in `directory`, sorted by name, merged into one SARIF log whose
  /// single run has `automationDetails.id` `CATEGORY/` and every result, rule and notification;
  /// with `baseline`, each of its entries that no report matched becomes an `absent` result;
  /// `notMerged` is told how many results were past ``maxMergedResults``.
  package static func merge(
    directory: URL, category: String = "canarytrap", baseline: [KnownLeak]? = nil,
    notMerged: (Int) -> Void = { _ in }
  ) throws -> Data {
    var merger = Merger(baseline: baseline)
    // One file decoded at a time: what is kept is the merged run, not every log.
    try forEachLog(directory: directory) { merger.add($0) }
    notMerged(merger.resultsNotMerged)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(merger.log(category: category))
  }

  /// What a folder of reports says about a baseline across the whole run they come from.
  package struct BaselineCheck: Sendable {
    /// How many SARIF reports the folder holds.
    package var reports: Int
    /// How many of them were judged against a baseline.
    package var reportsUsingBaseline: Int
    /// The entry counts those reports name (one value when they all used the same baseline).
    package var entryCounts: Set<Int>
    /// The entries of the baseline that no report's findings matched, in the baseline's order.
    package var stale: [KnownLeak]
  }

  /// Which entries of `baseline` matched no finding in any SARIF report in `directory`.
  package static func check(directory: URL, baseline: [KnownLeak]) throws -> BaselineCheck {
    var reports = 0
    var using = 0
    var entryCounts = Set<Int>()
    var matched = Set<String>()
    try forEachLog(directory: directory) { log in
      reports += 1
      for run in log.runs {
        if let entries = run.properties["baselineEntries"] {
          using += 1
          if let count = Int(entries) { entryCounts.insert(count) }
        }
      }
      matched.formUnion(matchedEntryKeys(log.runs))
    }
    return BaselineCheck(
      reports: reports, reportsUsingBaseline: using, entryCounts: entryCounts,
      stale: baseline.filter { !matched.contains($0.baselineKey) })
  }

  /// The keys of the baseline entries that accepted at least one result of `runs`.
  static func matchedEntryKeys(_ runs: [SARIFLog.Run]) -> Set<String> {
    Set(
      runs.flatMap(\.results).filter { $0.baselineState == "unchanged" }.compactMap(
        \.properties.baselineEntry))
  }

  /// The largest report one merge reads: 256 MiB.
  package static let maxFileBytes = 256 << 20

  /// Every `*.sarif` file directly in `directory`, sorted by name: what a merge or a check reads.
  package static func reportFiles(in directory: URL) throws -> [URL] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0.hasSuffix(".sarif") }.sorted()
    } catch {
      throw Failure(description: "cannot read the folder \(directory.path): \(error.localizedDescription)")
    }
    guard !names.isEmpty else {
      throw Failure(description: "\(directory.path) holds no .sarif file: nothing to merge")
    }
    guard names.count <= maxFiles else {
      throw Failure(
        description: "\(directory.path) holds \(names.count) .sarif files; the limit is \(maxFiles)")
    }
    return names.map { directory.appendingPathComponent($0) }
  }

  /// Every `*.sarif` file directly in `directory`, sorted by name, decoded and handed to `body`
  /// one at a time; each must be a regular file (a FIFO or device would block or never end) of at
  /// most ``maxFileBytes``.
  static func forEachLog(directory: URL, _ body: (SARIFLog) throws -> Void) throws {
    for url in try reportFiles(in: directory) {
      let name = url.lastPathComponent
      var info = stat()
      guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
        throw Failure(description: "\(name) is not a regular file; a report folder holds report files only")
      }
      guard Int(info.st_size) <= maxFileBytes else {
        throw Failure(description: "\(name) is over \(maxFileBytes >> 20) MiB; it is not a report")
      }
      let log: SARIFLog
      do {
        log = try JSONDecoder().decode(SARIFLog.self, from: Data(contentsOf: url))
      } catch {
        throw Failure(description: "\(name) is not a CanaryTrap SARIF log: \(error)")
      }
      try body(log)
    }
  }

  /// The most results one merged run holds: 25,000, what GitHub code scanning accepts in one run
  /// (each kept result costs about 9 KB of memory while the log is decoded and encoded). Results
  /// past it are counted, not kept: the run's `resultsNotMerged` property, an error notification
  /// and its summary say how many, and its verdict still counts them.
  package static let maxMergedResults = 25_000

  /// The logs' runs as one run: rules deduplicated by id (results re-indexed), fingerprints kept
  /// unique, every notification kept, the run successful only when every run was.
  static func merged(
    _ logs: [SARIFLog], category: String, baseline: [KnownLeak]? = nil, maxResults: Int = maxMergedResults
  ) -> SARIFLog {
    var merger = Merger(baseline: baseline, maxResults: maxResults)
    for log in logs { merger.add(log) }
    return merger.log(category: category)
  }

  /// The merged run, built one log at a time so that no more than one decoded log is held.
  struct Merger {
    private let baseline: [KnownLeak]?
    private let maxResults: Int
    private var rules: [SARIFLog.Rule] = []
    private var ruleIndex: [String: Int] = [:]
    private var results: [SARIFLog.Result] = []
    private var fingerprints = FingerprintNumbering()
    private var notifications: [SARIFLog.Notification] = []
    private var successful = true
    private var verdicts: [String] = []
    private var logCount = 0
    private var usesBaseline: Bool
    private var matchedKeys = Set<String>()
    /// Each report's `absent` results, the first per entry, kept until every report is read: an
    /// entry is absent from the merged run only when no report matched it.
    private var absent: [(key: String, result: SARIFLog.Result)] = []
    private var absentSeen = Set<String>()
    /// Results past `maxResults`, counted and not kept.
    private(set) var resultsNotMerged = 0

    init(baseline: [KnownLeak]?, maxResults: Int = SARIFMerge.maxMergedResults) {
      self.baseline = baseline
      self.maxResults = maxResults
      usesBaseline = baseline != nil
    }

    mutating func add(_ log: SARIFLog) {
      logCount += 1
      matchedKeys.formUnion(SARIFMerge.matchedEntryKeys(log.runs))
      for run in log.runs {
        if run.properties["baselineEntries"] != nil { usesBaseline = true }
        for rule in run.tool.driver.rules where ruleIndex[rule.id] == nil {
          ruleIndex[rule.id] = rules.count
          rules.append(rule)
        }
        for var result in run.results {
          result.ruleIndex = ruleIndex[result.ruleId] ?? 0
          if result.baselineState == "absent" {
            if let key = result.properties.baselineEntry, absentSeen.insert(key).inserted {
              absent.append((key, result))
            }
            continue
          }
          guard results.count < maxResults else {
            resultsNotMerged += 1
            continue
          }
          keep(result)
        }
        for invocation in run.invocations {
          successful = successful && invocation.executionSuccessful
          notifications += invocation.toolExecutionNotifications ?? []
        }
        verdicts.append(run.properties["verdict"] ?? "inconclusive")
      }
    }

    private mutating func keep(_ result: SARIFLog.Result) {
      var result = result
      for (key, value) in result.partialFingerprints {
        result.partialFingerprints[key] = fingerprints.unique(key, value)
      }
      results.append(result)
    }

    /// The one-run log of everything added.
    mutating func log(category: String) -> SARIFLog {
      var absentKeys = Set<String>()
      for (key, result) in absent where !matchedKeys.contains(key) {
        absentKeys.insert(key)
        keep(result)
      }
      for entry in baseline ?? [] where !matchedKeys.contains(entry.baselineKey) {
        guard absentKeys.insert(entry.baselineKey).inserted else { continue }
        if ruleIndex[SARIFLog.staleRuleID] == nil {
          ruleIndex[SARIFLog.staleRuleID] = rules.count
          rules.append(SARIFLog.staleRule)
        }
        results.append(
          SARIFLog.absentResult(for: entry, ruleIndex: ruleIndex[SARIFLog.staleRuleID] ?? 0, site: nil))
      }
      // §3.27.24: once any result has a baseline state, every result has one.
      if usesBaseline {
        for index in results.indices where results[index].baselineState == nil {
          results[index].baselineState = "new"
        }
      }
      var notes = notifications
      if resultsNotMerged > 0 {
        notes.append(
          .init(
            level: "error",
            message: .init(
              text: "\(resultsNotMerged) results past the limit of \(maxResults) per merged run were not "
                + "merged; the verdict counts them"),
            descriptor: .init(id: "canary.merge.resultsNotMerged")))
      }
      let verdict =
        verdicts.contains("leaky")
        ? "leaky" : verdicts.allSatisfy { $0 == "clean" } ? "clean" : "inconclusive"
      let leaks = results.count - absentKeys.count + resultsNotMerged
      var properties = [
        "title": "\(logCount) CanaryTrap reports", "verdict": verdict,
        "summary":
          "\(verdict.uppercased()): \(leaks) leaks in \(logCount) reports"
          + (absentKeys.isEmpty ? "" : "; \(absentKeys.count) baseline entries matched nothing")
          + (resultsNotMerged == 0 ? "" : "; \(resultsNotMerged) results not merged (over \(maxResults))"),
      ]
      if let baseline { properties["baselineEntries"] = String(baseline.count) }
      if resultsNotMerged > 0 { properties["resultsNotMerged"] = String(resultsNotMerged) }
      let run = SARIFLog.Run(
        tool: .init(driver: .init(rules: rules)),
        automationDetails: .init(id: "\(category)/"),
        invocations: [
          .init(executionSuccessful: successful, toolExecutionNotifications: notes.isEmpty ? nil : notes)
        ],
        results: results,
        properties: properties)
      return SARIFLog(runs: [run])
    }
  }

  /// Makes each partial fingerprint unique across a merge: the second use of `KEY=VALUE` becomes
  /// `VALUE#2`, the third `VALUE#3`, and so on. The next number for each value is remembered, so
  /// N results sharing a fingerprint cost N insertions, not N²/2 (53,498 identical results took
  /// over 120 s when every copy counted up from 1).
  struct FingerprintNumbering {
    private var taken = Set<String>()
    private var nextUse: [String: Int] = [:]
    /// How many insertions were tried: one per fingerprint, plus one per collision with a value
    /// that already ends in `#N`.
    private(set) var probes = 0

    /// `value`, or `value#N` for the first N that makes `key=value#N` unused.
    mutating func unique(_ key: String, _ value: String) -> String {
      let base = "\(key)=\(value)"
      var use = nextUse[base] ?? 1
      while true {
        let candidate = use == 1 ? value : "\(value)#\(use)"
        probes += 1
        if taken.insert("\(key)=\(candidate)").inserted {
          nextUse[base] = use + 1
          return candidate
        }
        use += 1
      }
    }
  }

  /// A run ID from a report title: letters, digits, `.`, `_` and `-` kept, anything else `-`.
  static func runID(_ title: String) -> String {
    let kept = title.unicodeScalars.map { scalar -> String in
      let allowed =
        CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || "._-".unicodeScalars.contains(scalar)
      return allowed ? String(scalar) : "-"
    }
    let id = kept.joined()
    return id.isEmpty ? "run" : String(id.prefix(200))
  }
}
