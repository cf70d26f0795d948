import CanaryTrap
import Foundation

/// What SARIF 2.1.0 and GitHub's code-scanning upload require of a log, checked on its JSON
/// (written here from the specification's required properties and enumerations and GitHub's
/// "SARIF support for code scanning" page; no schema is copied). One sentence per violation.
enum SARIFChecker {
  static let levels: Set<String> = ["none", "note", "warning", "error"]

  /// Every rule `data` breaks; `singleRun` demands one run (one category per upload).
  /// SARIF 2.1.0 §3.33.7's values of `logicalLocation.kind`.
  static let logicalKinds: Set<String> = [
    "function", "member", "module", "namespace", "resource", "type", "returnType", "parameter", "variable",
    "element", "attribute", "text", "comment", "processingInstruction", "dtd", "declaration", "object",
    "array", "property", "value",
  ]

  /// Whether a log must name `informationUri` (optional in SARIF §3.19.17; CanaryTrap names it):
  /// only once ``ProjectHome/url`` is a real address; a placeholder is left out, not shipped.
  static var informationURIRequired: Bool { !ProjectHome.isPlaceholder }

  /// SARIF 2.1.0 §3.27.24's values of `result.baselineState`.
  static let baselineStates: Set<String> = ["new", "unchanged", "updated", "absent"]
  /// §3.27.9's values of `result.kind`.
  static let kinds: Set<String> = ["pass", "open", "informational", "notApplicable", "review", "fail"]

  static func violations(in data: Data, singleRun: Bool) -> [String] {
    guard let log = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return ["not a JSON object"]
    }
    var problems: [String] = []
    if log["version"] as? String != "2.1.0" { problems.append("version is not \"2.1.0\"") }
    guard let runs = log["runs"] as? [[String: Any]] else { return problems + ["runs is not an array"] }
    if singleRun && runs.count != 1 {
      problems.append("\(runs.count) runs; code scanning takes one per category")
    }
    var categories = Set<String>()
    for (number, run) in runs.enumerated() {
      let at = "runs[\(number)]"
      let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any]
      if (driver?["name"] as? String)?.isEmpty != false { problems.append("\(at).tool.driver.name missing") }
      if driver?["version"] as? String == nil { problems.append("\(at).tool.driver.version missing") }
      if let uri = driver?["informationUri"] as? String {
        if URL(string: uri)?.scheme == nil {
          problems.append("\(at).tool.driver.informationUri is not absolute")
        }
      } else if informationURIRequired {
        problems.append("\(at).tool.driver.informationUri missing")
      }
      if let id = (run["automationDetails"] as? [String: Any])?["id"] as? String {
        let category = id.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
          separator: "/")
        if !categories.insert(category).inserted { problems.append("\(at) repeats category \(category)") }
      } else {
        problems.append("\(at).automationDetails.id missing")
      }
      let rules = driver?["rules"] as? [[String: Any]] ?? []
      var fingerprints = Set<String>()
      let runResults = run["results"] as? [[String: Any]] ?? []
      // §3.27.24: present on any result of a run, present on every one.
      let withState = runResults.filter { $0["baselineState"] != nil }.count
      if withState > 0 && withState < runResults.count {
        problems.append(
          "\(at): \(withState) of \(runResults.count) results have a baselineState; all or none must")
      }
      for (index, result) in runResults.enumerated() {
        let where_ = "\(at).results[\(index)]"
        if let state = result["baselineState"],
          !(state is String && Self.baselineStates.contains(state as! String))
        {
          problems.append("\(where_).baselineState \(state) is not one of \(baselineStates.sorted())")
        }
        if let kind = result["kind"] {
          if !(kind is String && Self.kinds.contains(kind as! String)) {
            problems.append("\(where_).kind \(kind) is not one of \(kinds.sorted())")
          } else if kind as? String != "fail", let level = result["level"] as? String, level != "none" {
            // §3.27.9: a level other than none requires kind fail.
            problems.append("\(where_).kind \(kind) with level \(level); only fail takes a level but none")
          }
        }
        if ((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty != false {
          problems.append("\(where_).message.text missing")
        }
        if let level = result["level"] as? String, !levels.contains(level) {
          problems.append("\(where_).level \(level) is not one of \(levels.sorted())")
        }
        let ruleID = result["ruleId"] as? String
        if let ruleIndex = result["ruleIndex"] as? Int {
          if !rules.indices.contains(ruleIndex) || rules[ruleIndex]["id"] as? String != ruleID {
            problems.append("\(where_).ruleIndex \(ruleIndex) does not point at rule \(ruleID ?? "?")")
          }
        }
        let fingerprint = (result["partialFingerprints"] as? [String: String])?.sorted { $0.key < $1.key }
        if let fingerprint, !fingerprint.isEmpty {
          if !fingerprints.insert("\(fingerprint)").inserted {
            problems.append("\(where_) repeats a fingerprint")
          }
        } else {
          problems.append("\(where_).partialFingerprints missing")
        }
        let locations = result["locations"] as? [[String: Any]] ?? []
        if locations.isEmpty { problems.append("\(where_) has no location") }
        for location in locations {
          let physical = location["physicalLocation"] as? [String: Any]
          let uri = (physical?["artifactLocation"] as? [String: Any])?["uri"] as? String ?? ""
          if uri.isEmpty { problems.append("\(where_) artifact URI missing") }
          if uri.hasPrefix("/") { problems.append("\(where_) artifact URI \(uri) is a bare absolute path") }
          let region = physical?["region"] as? [String: Any]
          for key in ["startLine", "startColumn"] {
            if let value = region?[key] as? Int, value < 1 { problems.append("\(where_) region.\(key) < 1") }
          }
          // §3.28.4 / §3.33: an array of logicalLocation objects, each naming something, with a
          // kind among §3.33.7's values when it has one.
          if let logical = location["logicalLocations"] {
            guard let items = logical as? [[String: Any]], !items.isEmpty else {
              problems.append("\(where_).logicalLocations is not a non-empty array of objects")
              continue
            }
            for item in items {
              let named = ["name", "fullyQualifiedName", "decoratedName"].contains {
                (item[$0] as? String)?.isEmpty == false
              }
              if !named { problems.append("\(where_) logical location names nothing") }
              if let kind = item["kind"], !(kind is String && Self.logicalKinds.contains(kind as! String)) {
                problems.append("\(where_) logical location kind \(kind) is not one of SARIF's")
              }
            }
          }
        }
      }
    }
    return problems
  }
}
