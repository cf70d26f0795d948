/// The encodable shape of a SARIF 2.1.0 log, limited to the properties CanaryTrap writes.
struct SARIFLog: Encodable {
  static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

  var schema = schemaURI
  var version = "2.1.0"
  var runs: [Run]

  enum CodingKeys: String, CodingKey {
    case schema = "$schema"
    case version, runs
  }

  struct Run: Encodable {
    var tool: Tool
    var invocations: [Invocation]
    var results: [Result]
    var properties: [String: String]
  }

  struct Tool: Encodable {
    var driver: Driver
  }

  struct Driver: Encodable {
    var name = "CanaryTrap"
    var rules: [Rule]
  }

  struct Rule: Encodable {
    var id: String
    var name: String
    var shortDescription: Message
    var fullDescription: Message
    var help: Message
    var defaultConfiguration = Configuration()
    var properties: RuleProperties

    struct Configuration: Encodable {
      var level = "error"
    }

    struct RuleProperties: Encodable {
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

  struct Message: Encodable {
    var text: String
  }

  struct Invocation: Encodable {
    var executionSuccessful: Bool
    var toolExecutionNotifications: [Notification]?
  }

  struct Notification: Encodable {
    var level: String
    var message: Message
    var descriptor: Descriptor

    struct Descriptor: Encodable {
      var id: String
    }
  }

  struct Result: Encodable {
    var ruleId: String
    var ruleIndex: Int
    var level = "error"
    var message: Message
    var locations: [Location]
    var partialFingerprints: [String: String]
    var properties: ResultProperties
  }

  struct Location: Encodable {
    var physicalLocation: PhysicalLocation
  }

  struct PhysicalLocation: Encodable {
    var artifactLocation: ArtifactLocation
    var region: Region
  }

  struct ArtifactLocation: Encodable {
    var uri: String
  }

  struct Region: Encodable {
    var startLine: Int
    var startColumn: Int
  }

  struct ResultProperties: Encodable {
    var canaryLocation: String
    var canaryShape: String?
    var encoding: String
    var source: String
    var sourceLine: Int
    var sourceColumn: Int
    var excerpt: String
  }
}
