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
    return .xctest(file: site.filePath, line: site.line)  // api-floor: CallSite.filePath, not Testing's
  }

  /// Records one issue or failure per message.
  func record(_ messages: [String]) {
    for message in messages {
      switch self {
      #if canImport(Testing)
        case .swiftTesting(let location):
          Issue.record(Comment(rawValue: message), sourceLocation: location)
      #endif
      case .xctest(let file, let line):
        #if canImport(XCTest)
          XCTFail(message, file: file, line: line)
        #else
          print("\(file):\(line): error: \(message)")
        #endif
      }
    }
  }
}

extension LeakReport {
  /// The messages test adapters record, one per problem: every problem but a thrown error the
  /// test framework already records itself.
  func issueMessages(excludingError thrown: String? = nil) -> [String] {
    problems.compactMap { problem in
      if case .error(let text) = problem.kind, text == thrown { return nil }
      return problem.message
    }
  }
}
