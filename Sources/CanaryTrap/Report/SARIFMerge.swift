import Foundation

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
  /// single run has `automationDetails.id` `CATEGORY/` and every result, rule and notification.
  package static func merge(directory: URL, category: String = "canarytrap") throws -> Data {
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
    var logs: [SARIFLog] = []
    for name in names {
      let url = directory.appendingPathComponent(name)
      do {
        logs.append(try JSONDecoder().decode(SARIFLog.self, from: Data(contentsOf: url)))
      } catch {
        throw Failure(description: "\(name) is not a CanaryTrap SARIF log: \(error)")
      }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(merged(logs, category: category))
  }

  /// The logs' runs as one run: rules deduplicated by id (results re-indexed), fingerprints kept
  /// unique, every notification kept, the run successful only when every run was.
  static func merged(_ logs: [SARIFLog], category: String) -> SARIFLog {
    var rules: [SARIFLog.Rule] = []
    var ruleIndex: [String: Int] = [:]
    var results: [SARIFLog.Result] = []
    var fingerprints = Set<String>()
    var notifications: [SARIFLog.Notification] = []
    var successful = true
    var verdicts: [String] = []
    for run in logs.flatMap(\.runs) {
      for rule in run.tool.driver.rules where ruleIndex[rule.id] == nil {
        ruleIndex[rule.id] = rules.count
        rules.append(rule)
      }
      for var result in run.results {
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
        "summary": "\(verdict.uppercased()): \(results.count) leaks in \(logs.count) reports",
      ])
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
