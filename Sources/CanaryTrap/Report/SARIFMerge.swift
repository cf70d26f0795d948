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
  /// with `baseline`, each of its entries that no report matched becomes an `absent` result.
  package static func merge(directory: URL, category: String = "canarytrap", baseline: [KnownLeak]? = nil)
    throws -> Data
  {
    let logs = try readLogs(directory: directory)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(merged(logs, category: category, baseline: baseline))
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
    let logs = try readLogs(directory: directory)
    let runs = logs.flatMap(\.runs)
    let using = runs.filter { $0.properties["baselineEntries"] != nil }
    let matched = matchedEntryKeys(runs)
    return BaselineCheck(
      reports: logs.count, reportsUsingBaseline: using.count,
      entryCounts: Set(using.compactMap { $0.properties["baselineEntries"].flatMap { Int($0) } }),
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

  /// Every `*.sarif` file directly in `directory`, sorted by name, decoded; each must be a
  /// regular file (a FIFO or device would block or never end) of at most ``maxFileBytes``.
  static func readLogs(directory: URL) throws -> [SARIFLog] {
    var logs: [SARIFLog] = []
    for url in try reportFiles(in: directory) {
      let name = url.lastPathComponent
      var info = stat()
      guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
        throw Failure(description: "\(name) is not a regular file; a report folder holds report files only")
      }
      guard Int(info.st_size) <= maxFileBytes else {
        throw Failure(description: "\(name) is over \(maxFileBytes >> 20) MiB; it is not a report")
      }
      do {
        logs.append(try JSONDecoder().decode(SARIFLog.self, from: Data(contentsOf: url)))
      } catch {
        throw Failure(description: "\(name) is not a CanaryTrap SARIF log: \(error)")
      }
    }
    return logs
  }

  /// The logs' runs as one run: rules deduplicated by id (results re-indexed), fingerprints kept
  /// unique, every notification kept, the run successful only when every run was.
  static func merged(_ logs: [SARIFLog], category: String, baseline: [KnownLeak]? = nil) -> SARIFLog {
    var rules: [SARIFLog.Rule] = []
    var ruleIndex: [String: Int] = [:]
    var results: [SARIFLog.Result] = []
    var fingerprints = Set<String>()
    var notifications: [SARIFLog.Notification] = []
    var successful = true
    var verdicts: [String] = []
    // An entry is absent from the run only when no report matched it: per-report `absent`
    // results of entries another report matched are dropped, and each absent entry kept once.
    let allRuns = logs.flatMap(\.runs)
    let matchedKeys = matchedEntryKeys(allRuns)
    let usesBaseline = baseline != nil || allRuns.contains { $0.properties["baselineEntries"] != nil }
    var absentKeys = Set<String>()
    for run in allRuns {
      for rule in run.tool.driver.rules where ruleIndex[rule.id] == nil {
        ruleIndex[rule.id] = rules.count
        rules.append(rule)
      }
      for var result in run.results {
        if result.baselineState == "absent" {
          guard let key = result.properties.baselineEntry, !matchedKeys.contains(key),
            absentKeys.insert(key).inserted
          else { continue }
        }
        // §3.27.24: once any result has a baseline state, every result has one.
        if usesBaseline && result.baselineState == nil { result.baselineState = "new" }
        result.ruleIndex = ruleIndex[result.ruleId] ?? 0
        for (key, value) in result.partialFingerprints {
          var unique = value
          var use = 1
          while !fingerprints.insert("\(key)=\(unique)").inserted {
            use += 1
            unique = "\(value)#\(use)"
          }
          result.partialFingerprints[key] = unique
        }
        results.append(result)
      }
      for invocation in run.invocations {
        successful = successful && invocation.executionSuccessful
        notifications += invocation.toolExecutionNotifications ?? []
      }
      verdicts.append(run.properties["verdict"] ?? "inconclusive")
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
    let verdict =
      verdicts.contains("leaky") ? "leaky" : verdicts.allSatisfy { $0 == "clean" } ? "clean" : "inconclusive"
    let run = SARIFLog.Run(
      tool: .init(driver: .init(rules: rules)),
      automationDetails: .init(id: "\(category)/"),
      invocations: [
        .init(
          executionSuccessful: successful,
          toolExecutionNotifications: notifications.isEmpty ? nil : notifications)
      ],
      results: results,
      properties: [
        "title": "\(logs.count) CanaryTrap reports", "verdict": verdict,
        "summary":
          "\(verdict.uppercased()): \(results.count - absentKeys.count) leaks in \(logs.count) reports"
          + (absentKeys.isEmpty ? "" : "; \(absentKeys.count) baseline entries matched nothing"),
      ].merging(baseline.map { ["baselineEntries": String($0.count)] } ?? [:]) { first, _ in first })
    return SARIFLog(runs: [run])
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
