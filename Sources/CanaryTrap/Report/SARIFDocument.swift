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
    var level = "error"
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
    var sourceLine: Int
    var sourceColumn: Int
    var excerpt: String
  }
}
