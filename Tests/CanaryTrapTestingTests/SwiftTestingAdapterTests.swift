import CanaryTrap
import CanaryTrapPrimitives
import CanaryTrapTesting
import Foundation
import Testing

/// The text of an issue's comments.
private func text(of issue: Issue) -> String {
  issue.comments.map(\.rawValue).joined(separator: "\n")
}

@Suite struct WithCanaryTrapTests {
  @Test func plantedLeakIsExactlyOneIssueAtThePlantingLine() async throws {
    let matched = Locked(0)
    try await withKnownIssue {
      try await withCanaryTrap(configuration: AdapterScenario.quiet) { trap in
        #expect(CanaryTrap.current === trap)
        try await AdapterScenario.run(in: trap, leak: true)
      }
    } matching: { issue in
      let isExpected =
        issue.sourceLocation?.line == AdapterScenario.runPlantingLine
        && issue.sourceLocation?.fileID == AdapterScenario.fileID
        && text(of: issue).hasPrefix(AdapterScenario.leakMessage)
      if isExpected { matched.withLock { $0 += 1 } }
      return isExpected
    }
    #expect(matched.current == 1)
    #expect(CanaryTrap.current == nil)
  }

  @Test func cleanRunRecordsNoIssue() async throws {
    let value = try await withCanaryTrap(configuration: AdapterScenario.quiet) { trap in
      try await AdapterScenario.run(in: trap, leak: false)
    }
    #expect(value.hasPrefix("cnry"))
  }

  @Test func undeliveredCanaryIsAnIssueAtItsPlantingLine() async throws {
    let matched = Locked([String]())
    let expectedLine = #line + 4
    await withKnownIssue {
      await withCanaryTrap(configuration: AdapterScenario.quiet) { trap in
        trap.memoryLog().write("nothing sent")
        _ = trap.canary(.token, at: .requestURL(.query("never-sent")))
      }
    } matching: { issue in
      guard issue.sourceLocation?.line == expectedLine else { return false }
      matched.withLock { $0.append(text(of: issue)) }
      return true
    }
    #expect(matched.current.count == 1)
    #expect(
      matched.current.first?.hasPrefix("canary planted in request.url.query[never-sent] was never delivered")
        == true)
  }

  @Test func expectNoLeaksInsideTheScopeReportsOnlyOnceAtThePlantingLine() async throws {
    let lines = Locked([Int]())
    try await withKnownIssue {
      try await withCanaryTrap(configuration: AdapterScenario.quiet) { trap in
        try await AdapterScenario.run(in: trap, leak: true)
        let report = await expectNoLeaks(in: trap)
        #expect(report?.verdict == .leaky)
      }
    } matching: { issue in
      lines.withLock { $0.append(issue.sourceLocation?.line ?? 0) }
      return text(of: issue).hasPrefix(AdapterScenario.leakMessage)
    }
    #expect(lines.current == [AdapterScenario.runPlantingLine])
  }

  @Test func expectNoLeaksRecordsOneIssuePerProblemAtItsLine() {
    let messages = Locked([String]())
    let expectedLine = #line + 2
    withKnownIssue {
      expectNoLeaks(AdapterScenario.problemReport)
    } matching: { issue in
      guard issue.sourceLocation?.line == expectedLine else { return false }
      messages.withLock { $0.append(text(of: issue)) }
      return true
    }
    #expect(messages.current == AdapterScenario.problemMessages)
  }

  @Test func thrownErrorIsRethrownAndWrittenToTheReportFiles() async throws {
    struct Boom: Error {}
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("canary-adapter-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var configuration = AdapterScenario.quiet
    configuration.reportDirectory = directory
    await #expect(throws: Boom.self) {
      try await withCanaryTrap(configuration: configuration) { trap in
        try await AdapterScenario.run(in: trap, leak: false)
        throw Boom()
      }
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    let base = "WithCanaryTrapTests.thrownErrorIsRethrownAndWrittenToTheReportFiles"
    #expect(
      files == (ReportFormat.allCases.map { "\(base).\($0.fileExtension)" } + [ReportIndex.fileName]).sorted()
    )
    let json = try String(contentsOf: directory.appendingPathComponent("\(base).json"), encoding: .utf8)
    #expect(json.contains("the test threw Boom()"))
  }
}

@Suite struct CanaryTrapTraitTests {
  @Test func traitRecordsEachProblemAtThePlantingLineOrWhereItWasWritten() async throws {
    let trait = CanaryTrapTrait.canaryTrap(AdapterScenario.quiet)
    let traitLine = #line - 1
    let emailLine = #line + 8
    let test = try #require(Test.current)
    let issues = Locked([(line: Int, fileID: String, text: String)]())
    try await withKnownIssue {
      try await trait.provideScope(for: test, testCase: Test.Case.current) {
        let trap = try #require(CanaryTrap.current)
        #expect(trap.sourceLocation?.line == traitLine)
        try await AdapterScenario.run(in: trap, leak: true)
        _ = trap.canary(.email, at: .requestBody(.json("email")))
        trap.reportError("the transport gave up")
      }
    } matching: { issue in
      let location = issue.sourceLocation
      issues.withLock { $0.append((location?.line ?? 0, location?.fileID ?? "", text(of: issue))) }
      return true
    }
    let recorded = issues.current
    #expect(recorded.count == 3)
    // The leak at the line that planted its canary, in the file that planted it.
    #expect(recorded.first?.text.hasPrefix(AdapterScenario.leakMessage) == true)
    #expect(recorded.first?.line == AdapterScenario.runPlantingLine)
    #expect(recorded.first?.fileID == AdapterScenario.fileID)
    // The undelivered canary at its own planting line here.
    #expect(
      recorded.dropFirst().first?.text.hasPrefix(
        "canary planted in request.body.json[email] was never delivered") == true)
    #expect(recorded.dropFirst().first?.line == emailLine)
    #expect(recorded.dropFirst().first?.fileID == #fileID)
    // A problem with no planting line where the trait was written.
    #expect(recorded.last?.text == "the run failed: the transport gave up")
    #expect(recorded.last?.line == traitLine)
  }

  @Test func barePropertyFormRecordsAtTheTestDeclaration() async throws {
    let test = try #require(Test.current)
    let lines = Locked([Int]())
    try await withKnownIssue {
      try await CanaryTrapTrait.canaryTrap.provideScope(for: test, testCase: Test.Case.current) {
        let trap = try #require(CanaryTrap.current)
        trap.memoryLog().write("quiet log")
        trap.reportError("nothing was sent")
      }
    } matching: { issue in
      lines.withLock { $0.append(issue.sourceLocation?.line ?? 0) }
      // The scope planted nothing, so it is also inconclusive for that; both land on the declaration.
      return text(of: issue).contains("the run failed: nothing was sent")
        || text(of: issue).contains("no canary was planted in this scope")
    }
    #expect(!lines.current.isEmpty && lines.current.allSatisfy { $0 == test.sourceLocation.line })
  }

  @Test func aScopeIsProvidedForEachTestCaseNotForTheWholeFunction() throws {
    let test = try #require(Test.current)
    let trait = CanaryTrapTrait.canaryTrap(AdapterScenario.quiet)
    let testCase = try #require(Test.Case.current)
    #expect(trait.scopeProvider(for: test, testCase: testCase) != nil)
    #expect(trait.scopeProvider(for: test, testCase: nil) == nil)
  }

  @Test func matrixLeakIsRecordedAtTheRunMatrixCall() async throws {
    let test = try #require(Test.current)
    let issues = Locked([(line: Int, text: String)]())
    let matrixLine = #line + 6
    try await withKnownIssue {
      try await CanaryTrapTrait.canaryTrap(AdapterScenario.quiet).provideScope(
        for: test, testCase: Test.Case.current
      ) {
        let trap = try #require(CanaryTrap.current)
        try await trap.runMatrix(
          through: AdapterScenario.loggingTransport(into: trap.memoryLog()), kinds: [.authHeaders])
      }
    } matching: { issue in
      issues.withLock { $0.append((issue.sourceLocation?.line ?? 0, text(of: issue))) }
      return issue.sourceLocation?.fileID == #fileID
    }
    let recorded = issues.current
    #expect(!recorded.isEmpty)
    #expect(recorded.allSatisfy { $0.line == matrixLine && $0.text.hasPrefix("canary planted in request.") })
  }
}

/// Every test here runs in the suite's scope and must record no issue: the clean twins of the
/// leak tests above. (Swift Testing resolves `#_sourceLocation` in an attribute to the
/// declaration it is attached to, so issues land on the `struct` or `func` line.)
@Suite(.canaryTrap(AdapterScenario.quiet))
struct TraitOnASuiteTests {
  static let suiteTraitLine = #line - 1

  @Test func eachTestGetsItsOwnScopeNamedAfterIt() async throws {
    let trap = try #require(CanaryTrap.current)
    #expect(trap.title == "TraitOnASuiteTests.eachTestGetsItsOwnScopeNamedAfterIt()")
    #expect(trap.sourceLocation?.line == Self.suiteTraitLine)
    try await AdapterScenario.run(in: trap, leak: false)
  }

  @Test(arguments: [1, 2])
  func parameterizedCasesEachGetAFreshScope(index: Int) async throws {
    let trap = try #require(CanaryTrap.current)
    #expect(trap.canaries.count == 0)
    try await AdapterScenario.run(in: trap, leak: false)
  }

  @Test(.canaryTrap(AdapterScenario.quiet))
  func aTestsOwnTraitWinsOverItsSuites() async throws {
    let ownTraitLine = #line - 1
    let trap = try #require(CanaryTrap.current)
    #expect(trap.sourceLocation?.line == ownTraitLine)
    // Only the innermost trait provides the scope; the suite's steps aside, and so does any other.
    let test = try #require(Test.current)
    let testCase = try #require(Test.Case.current)
    let traps = test.traits.compactMap { $0 as? CanaryTrapTrait }
    #expect(traps.count == 2)
    #expect(traps.first?.scopeProvider(for: test, testCase: testCase) == nil)
    #expect(traps.last?.scopeProvider(for: test, testCase: testCase) != nil)
    #expect(CanaryTrapTrait.canaryTrap.scopeProvider(for: test, testCase: testCase) == nil)
    try await AdapterScenario.run(in: trap, leak: false)
  }
}
