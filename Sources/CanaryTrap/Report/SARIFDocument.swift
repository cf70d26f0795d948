/// The encodable shape of a SARIF 2.1.0 log, limited to the properties CanaryTrap writes.
struct SARIFLog: Codable {
  static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
  /// The version code scanning shows for the tool.
  static let toolVersion = CanaryTrapVersion.current
  /// Where a reader of an alert learns what CanaryTrap is.
  static let informationURI = ProjectHome.informationURI

  var schema = schemaURI
  var version = "2.1.0"
  var runs: [Run]

  enum CodingKeys: String, CodingKey {
    case schema = "$schema"
    case version, runs
  }

  struct Run: Codable {
    var tool: Tool
    /// `category/run-id`; code scanning keeps one run per category.
    var automationDetails: AutomationDetails?
    var invocations: [Invocation]
    var results: [Result]
    var properties: [String: String]
  }

  struct AutomationDetails: Codable {
    var id: String
  }

  struct Tool: Codable {
    var driver: Driver
  }

  struct Driver: Codable {
    var name = "CanaryTrap"
    var version: String? = SARIFLog.toolVersion
    var informationUri: String? = SARIFLog.informationURI
    var rules: [Rule]
  }

  struct Rule: Codable {
    var id: String
    var name: String
    var shortDescription: Message
    var fullDescription: Message
    var help: Message
    var defaultConfiguration = Configuration()
    var properties: RuleProperties

    struct Configuration: Codable {
      var level = "error"
    }

    struct RuleProperties: Codable {
      var tags: [String]
      var precision = "very-high"
      var problemSeverity = "error"
      var securitySeverity = "7.5"

      enum CodingKeys: String, CodingKey {
        case tags, precision
        case problemSeverity = "problem.severity"
        case securitySeverity = "security-severity"
      }
    }
  }

  struct Message: Codable {
    var text: String
  }

  struct Invocation: Codable {
    var executionSuccessful: Bool
    var toolExecutionNotifications: [Notification]?
  }

  struct Notification: Codable {
    var level: String
    var message: Message
    var descriptor: Descriptor

    struct Descriptor: Codable {
      var id: String
    }
  }

  struct Result: Codable {
    var ruleId: String
    var ruleIndex: Int
    /// §3.27.9: absent (a failure) for a leak; `pass` for a baseline entry nothing matched.
    var kind: String? = nil
    var level = "error"
    /// §3.27.24, on every result when a baseline was in use: `new` (no entry accepts it),
    /// `unchanged` (an entry accepts it) or `absent` (an entry that matched nothing).
    var baselineState: String? = nil
    var message: Message
    var locations: [Location]
    var partialFingerprints: [String: String]
    var properties: ResultProperties
  }

  struct Location: Codable {
    var physicalLocation: PhysicalLocation
    /// The exchange location the leaked canary was planted in, and the sink it leaked into
    /// (SARIF 2.1.0 §3.28.4, §3.33).
    var logicalLocations: [LogicalLocation]?
  }

  /// A place named rather than positioned in a file (SARIF 2.1.0 §3.33).
  struct LogicalLocation: Codable {
    /// The last component of the name, such as `Authorization`.
    var name: String?
    /// The whole name, such as `request.header[Authorization]` or `stdout`.
    var fullyQualifiedName: String
    /// One of §3.33.7's values: `member` for a part of the HTTP exchange, `resource` for a sink.
    var kind: String
  }

  struct PhysicalLocation: Codable {
    var artifactLocation: ArtifactLocation
    var region: Region
  }

  struct ArtifactLocation: Codable {
    var uri: String
  }

  struct Region: Codable {
    var startLine: Int
    var startColumn: Int
  }

  struct ResultProperties: Codable {
    var canaryLocation: String
    var canaryShape: String?
    var encoding: String
    var source: String
    var sourceLine: Int?
    var sourceColumn: Int?
    var excerpt: String?
    /// The baseline entry (``KnownLeak/baselineKey``) that accepts the result or matched nothing.
    var baselineEntry: String? = nil
    /// Why the baseline accepts it, as the entry says.
    var baselineReason: String? = nil
  }
}

extension SARIFLog {
  /// The rule of baseline entries that matched nothing.
  static let staleRuleID = "canary-baseline/stale-entry"

  /// A passing rule: an accepted leak that no longer occurs, whose entry can go.
  static let staleRule = Rule(
    id: staleRuleID, name: "StaleBaselineEntry",
    shortDescription: .init(text: "A baseline entry matched no leak"),
    fullDescription: .init(
      text:
        "A leak the baseline accepts did not occur anywhere in the run: the code no longer leaks there,"
        + " or the test that found it did not run."),
    help: .init(text: "Remove the entry from the baseline so that the leak cannot come back unnoticed."),
    defaultConfiguration: .init(level: "none"),
    properties: .init(
      tags: ["canary-trap", "baseline"], problemSeverity: "recommendation", securitySeverity: "0.0"))

  /// The `absent` result (§3.27.24) of `entry`: kind `pass`, level `none` (§3.27.9 requires
  /// `none` for a kind other than `fail`), located at `site`, else at the entry's source file,
  /// else at `sink://baseline`.
  static func absentResult(for entry: KnownLeak, ruleIndex: Int, site: String?) -> Result {
    let uri = site ?? entry.source.map { SARIFPath.uri(for: $0) } ?? SARIFPath.sinkURI(for: "baseline")
    var logical: [LogicalLocation] = []
    if let location = entry.location?.description {
      logical.append(.init(name: nil, fullyQualifiedName: location, kind: "member"))
    }
    if let source = entry.source {
      logical.append(.init(name: nil, fullyQualifiedName: source, kind: "resource"))
    }
    return Result(
      ruleId: staleRuleID, ruleIndex: ruleIndex, kind: "pass", level: "none", baselineState: "absent",
      message: .init(
        text:
          "Baseline entry (\(entry.baselineKey)) matched no finding in this run; if the leak is fixed,"
          + " remove the entry" + (entry.reason.map { " (accepted because: \($0))" } ?? "") + "."),
      locations: [
        .init(
          physicalLocation: .init(
            artifactLocation: .init(uri: uri), region: .init(startLine: 1, startColumn: 1)),
          logicalLocations: logical.isEmpty ? nil : logical)
      ],
      partialFingerprints: ["canaryBaseline/v1": StableHash.fnv1a64Hex(entry.baselineKey)],
      properties: .init(
        canaryLocation: entry.location?.description ?? "*", canaryShape: nil, encoding: entry.encoding ?? "*",
        source: entry.source ?? "*", sourceLine: nil, sourceColumn: nil, excerpt: nil,
        baselineEntry: entry.baselineKey, baselineReason: entry.reason))
  }
}
