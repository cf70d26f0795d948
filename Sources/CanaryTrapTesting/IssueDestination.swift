import CanaryTrap

#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import XCTest
#endif

/// The place in the user's test code an assertion or scope was written, in the forms both test
/// frameworks need.
struct CallSite: Sendable {
  var fileID: StaticString
  var filePath: StaticString
  var line: UInt
  var column: UInt

  /// The location as reports store it.
  var reportLocation: ReportSourceLocation {
    ReportSourceLocation(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }

  #if canImport(Testing)
    /// The location as Swift Testing records it.
    var testingLocation: SourceLocation {
      SourceLocation(
        fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
  #endif
}

/// One issue an adapter records: its text and, when known, the line of the user's code it
/// belongs to (where the leaked or undelivered canary was planted).
struct IssueMessage: Sendable, Hashable {
  /// The sentence recorded.
  var text: String
  /// Where the issue belongs; nil records it where the scope or assertion was written.
  var plantedAt: ReportSourceLocation?

  init(_ text: String, plantedAt: ReportSourceLocation? = nil) {
    self.text = text
    self.plantedAt = plantedAt
  }

  /// The text with the planting line named, for a destination that cannot record it there.
  var textNamingPlantingSite: String {
    guard let plantedAt else { return text }
    return text + " (planted at \(plantedAt.shortDescription))"
  }
}

#if canImport(Testing)
  extension ReportSourceLocation {
    /// The location as Swift Testing records it.
    var testingLocation: SourceLocation {
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)  // api-floor: our type
    }
  }
#endif

/// How a leak the test accepts (`knownLeaks`) that occurred is recorded: a known issue whose
/// comment is its summary, such as `known leak (into stdout): 2 findings …`.
enum AcceptedLeak {
  /// Why the issue does not fail the test, the known issue's own comment.
  static let comment = "accepted by the test's knownLeaks"
}

/// Where problems of a report go: Swift Testing issues or XCTest failures, chosen once, when the
/// scope begins, because `Test.current` is nil off the test's task.
enum IssueDestination: Sendable {
  #if canImport(Testing)
    /// Swift Testing issues at this location.
    case swiftTesting(SourceLocation)
  #endif
  /// XCTest failures at this file and line.
  case xctest(file: StaticString, line: UInt)

  /// Swift Testing when a Swift Testing test is running on this task, XCTest otherwise.
  static func detect(at site: CallSite) -> IssueDestination {
    #if canImport(Testing)
      if Test.current != nil { return .swiftTesting(site.testingLocation) }
    #endif
    #if canImport(XCTest)
      RunningTestCase.install()
    #endif
    return .xctest(file: site.filePath, line: site.line)  // api-floor: CallSite.filePath, not Testing's
  }

  /// Records a finished scope: one issue per problem, and one known issue per known leak that
  /// occurred (on Linux XCTest, which has no expected failures, known leaks are not recorded).
  func record(_ outcome: ScopeOutcome) {
    record(outcome.messages)
    recordKnown(outcome.knownMessages)
  }

  /// Records each message as a known issue: Swift Testing's `withKnownIssue`, XCTest's
  /// `XCTExpectFailure` where it exists.
  ///
  /// The summary is the issue's comment, and the known issue's comment says why it does not fail
  /// the test. Swift Testing titles an issue recorded with a comment "Issue recorded" and prints
  /// both comments under it: nothing was thrown, so it is not recorded as an error, which Swift
  /// Testing would title "Caught error".
  func recordKnown(_ messages: [String]) {
    for message in messages {
      switch self {
      #if canImport(Testing)
        case .swiftTesting(let location):
          withKnownIssue(Comment(rawValue: AcceptedLeak.comment)) {
            Issue.record(Comment(rawValue: message), sourceLocation: location)
          }
      #endif
      case .xctest(let file, let line):
        #if canImport(XCTest) && canImport(Darwin)
          XCTExpectFailure(AcceptedLeak.comment) { XCTFail(message, file: file, line: line) }
        #else
          _ = (file, line)
        #endif
      }
    }
  }

  /// Records one issue or failure per message, each where it was written when it came with no
  /// planting line.
  func record(_ messages: [String]) {
    record(messages.map { IssueMessage($0) })
  }

  /// Records one issue or failure per message: at the line that planted its canary when known,
  /// else at this destination's own location.
  func record(_ messages: [IssueMessage]) {
    for message in messages {
      switch self {
      #if canImport(Testing)
        case .swiftTesting(let location):
          Issue.record(
            Comment(rawValue: message.text), sourceLocation: message.plantedAt?.testingLocation ?? location)
      #endif
      case .xctest(let file, let line):
        #if canImport(XCTest)
          if let site = message.plantedAt, let testCase = RunningTestCase.current {
            let file = site.filePath  // api-floor: ReportSourceLocation's, not Testing's
            testCase.recordCanaryTrapFailure(message.text, file: file, line: site.line)
          } else {
            XCTFail(message.textNamingPlantingSite, file: file, line: line)
          }
        #else
          print("\(file):\(line): error: \(message.textNamingPlantingSite)")
        #endif
      }
    }
  }
}
