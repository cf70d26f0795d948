// XCTestCase(name:testClosure:) and asyncTest exist only in swift-corelibs-xctest, so these run on
// Linux (and other non-Darwin platforms).
#if canImport(XCTest) && !canImport(Darwin)
  import CanaryTrap
  import XCTest

  @testable import CanaryTrapTesting

  /// A CanaryTrapTestCase whose scenarios (not named `test…`, so never discovered on their own)
  /// are run by ``CanaryTrapTestCaseTests``; it keeps its failures instead of reporting them.
  final class ScenarioCase: CanaryTrapTestCase {
    struct Failure {
      var description: String
      var file: String
      var line: Int
    }

    var failures: [Failure] = []
    var expectedLine = 0

    /// The failure of a scenario's own scope when the scenario planted nothing in it.
    static let unusedScope =
      "the run failed: no canary was planted in this scope, so no sink was tested for a leak: plant one with"
      + " trap.canary(_:at:) or run the matrix"

    override var canaryTrapConfiguration: CanaryTrap.Configuration { AdapterScenario.quiet }

    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
      expected: Bool
    ) {
      rememberRecordedFailure(description)
      failures.append(Failure(description: description, file: filePath, line: lineNumber))
    }

    /// Runs `scenario` as this class's test named `name` and returns the case with its failures.
    static func run(_ name: String, _ scenario: @escaping (ScenarioCase) -> () async throws -> Void)
      -> ScenarioCase
    {
      let closure = asyncTest(scenario)
      let testCase = ScenarioCase(name: name, testClosure: { try closure($0 as! ScenarioCase)() })
      testCase.run()
      return testCase
    }

    func leakyScenario() async throws {
      let log = memoryLog(); expectedLine = #line + 1
      let value = canary(.token, at: .requestHeader("X-Session"))
      try await AdapterScenario.plantAndSend(in: trap, log: log, value: value, leak: true)
    }

    func cleanScenario() async throws {
      let log = memoryLog()
      let value = canary(.token, at: .requestHeader("X-Session"))
      try await AdapterScenario.plantAndSend(in: trap, log: log, value: value, leak: false)
    }

    func explicitExpectationScenario() async throws {
      let log = memoryLog(); expectedLine = #line + 1
      let value = canary(.token, at: .requestHeader("X-Session"))
      try await AdapterScenario.plantAndSend(in: trap, log: log, value: value, leak: true)
      await expectNoLeaks()
    }

    func trapCanaryScenario() async throws {
      let log = memoryLog(); expectedLine = #line + 1
      let value = trap.canary(.token, at: .requestHeader("X-Session"))
      try await AdapterScenario.plantAndSend(in: trap, log: log, value: value, leak: true)
      trap.reportError("the transport gave up")
    }

    func matrixScenario() async throws {
      expectedLine = #line + 1
      try await trap.runMatrix(
        through: AdapterScenario.loggingTransport(into: memoryLog()), kinds: [.authHeaders])
    }

    func stoppedRunScenario() async throws {
      try await trap.runMatrix(
        through: AdapterScenario.loggingTransport(into: memoryLog()),
        kinds: [.getQuery, StopCauseTests.refusingKind])
    }

    /// The stop cause reaches the test, which catches it: XCTest records nothing, so the scope does.
    func caughtStopScenario() async throws {
      _ = try? await trap.runMatrix(
        through: AdapterScenario.loggingTransport(into: memoryLog()),
        kinds: [.getQuery, StopCauseTests.refusingKind])
    }

    func withCanaryTrapScenario() async throws {
      expectedLine = #line + 1
      try await withCanaryTrap(configuration: AdapterScenario.quiet) { trap in
        try await AdapterScenario.run(in: trap, leak: true)
      }
    }

    func reportScenario() async throws {
      expectedLine = #line + 1
      expectNoLeaks(AdapterScenario.problemReport)
    }

    func globalReportScenario() async throws {
      expectedLine = #line + 1
      CanaryTrapTesting.expectNoLeaks(AdapterScenario.problemReport)
    }
  }

  final class CanaryTrapTestCaseTests: XCTestCase {
    private let thisFile = "\(#filePath)"

    // swift-corelibs-xctest forgets the running test case once a nested one has run (`perform`
    // leaves `XCTCurrentTestCase` nil), and every XCTAssert after `ScenarioCase.run` then records
    // nothing: these record on this test case itself.
    private func expect(
      _ condition: Bool, _ message: @autoclosure () -> String = "", file: StaticString = #filePath,
      line: UInt = #line
    ) {
      guard !condition else { return }
      recordFailure(
        withDescription: "expectation failed \(message())", inFile: "\(file)", atLine: Int(line),
        expected: true)
    }

    private func expectEqual<T: Equatable>(
      _ actual: T, _ expected: T, _ message: @autoclosure () -> String = "", file: StaticString = #filePath,
      line: UInt = #line
    ) {
      expect(
        actual == expected, "(\(actual)) is not equal to (\(expected)) \(message())", file: file, line: line)
    }

    func testPlantedLeakFailsOnceAtItsPlantingLine() {
      let scenario = ScenarioCase.run("leakyScenario", ScenarioCase.leakyScenario)
      expectEqual(scenario.failures.map(\.line), [scenario.expectedLine])
      expectEqual(scenario.failures.map(\.file), [thisFile])
      expect(
        scenario.failures.first?.description.hasPrefix(AdapterScenario.leakMessage) == true,
        "\(scenario.failures)")
    }

    func testCleanTestRecordsNoFailure() {
      let scenario = ScenarioCase.run("cleanScenario", ScenarioCase.cleanScenario)
      expectEqual(scenario.failures.map(\.description), [])
    }

    func testExpectNoLeaksPointsTheLeakAtItsPlantingLineAndTearDownAddsNothing() {
      let scenario = ScenarioCase.run(
        "explicitExpectationScenario", ScenarioCase.explicitExpectationScenario)
      expectEqual(scenario.failures.map(\.line), [scenario.expectedLine])
      expect(
        scenario.failures.first?.description.hasPrefix(AdapterScenario.leakMessage) == true)
    }

    func testTrapCanaryLeakFailsAtItsPlantingLineAndOtherProblemsAtTheFirstSite() {
      let scenario = ScenarioCase.run("trapCanaryScenario", ScenarioCase.trapCanaryScenario)
      expectEqual(scenario.failures.map(\.line), [scenario.expectedLine, scenario.expectedLine - 1])
      expectEqual(scenario.failures.map(\.file), [thisFile, thisFile])
      expect(scenario.failures.first?.description.hasPrefix(AdapterScenario.leakMessage) == true)
      expectEqual(scenario.failures.last?.description, "the run failed: the transport gave up")
    }

    func testMatrixLeaksFailAtTheRunMatrixLine() {
      let scenario = ScenarioCase.run("matrixScenario", ScenarioCase.matrixScenario)
      expect(!scenario.failures.isEmpty)
      for failure in scenario.failures {
        expectEqual(failure.line, scenario.expectedLine, failure.description)
        expectEqual(failure.file, thisFile)
        expect(failure.description.hasPrefix("canary planted in request."), failure.description)
      }
    }

    func testAStoppedRunFailsWithItsCauseFirstOnceThenOneSummary() {
      let scenario = ScenarioCase.run("stoppedRunScenario", ScenarioCase.stoppedRunScenario)
      expectEqual(
        scenario.failures.map(\.description),
        [
          #"threw error "\#(StopCauseTests.FixtureMissing())""#,
          "the run stopped before it could be judged because of the error the test threw, which left 2 canaries"
            + " never delivered (request.url.query[session], request.url.query[email]) and 1 sink that heard"
            + " nothing (memory-log): see its report (CANARY_TRAP_REPORT_DIR) for each",
        ])
    }

    func testTwinACaughtStopCauseIsRecordedByTheScopeFirst() {
      let scenario = ScenarioCase.run("caughtStopScenario", ScenarioCase.caughtStopScenario)
      expectEqual(
        scenario.failures.map(\.description),
        [
          "the run failed: " + StopCauseTests.plantingFailure,
          "the run stopped before it could be judged because of it, which left 2 canaries"
            + " never delivered (request.url.query[session], request.url.query[email]) and 1 sink that heard"
            + " nothing (memory-log): see its report (CANARY_TRAP_REPORT_DIR) for each",
        ])
    }

    func testWithCanaryTrapFailsAtThePlantingLineOnceTheObserverRuns() {
      RunningTestCase.install()  // as the first CanaryTrapTestCase or withCanaryTrap of a process does
      let scenario = ScenarioCase.run("withCanaryTrapScenario", ScenarioCase.withCanaryTrapScenario)
      // The scenario's own scope, unused beside withCanaryTrap's, adds its failure last.
      expectEqual(scenario.failures.map(\.description).last, ScenarioCase.unusedScope)
      let leaks = scenario.failures.dropLast()
      expectEqual(leaks.map(\.line), [AdapterScenario.runPlantingLine])
      expectEqual(leaks.map { $0.file.hasSuffix("/AdapterScenario.swift") }, [true])
      expect(leaks.first?.description.hasPrefix(AdapterScenario.leakMessage) == true)
    }

    func testAFailureWithNoKnownTestCaseNamesThePlantingLineInItsText() {
      let site = ReportSourceLocation(
        fileID: "App/LeakTests.swift", filePath: "/p/LeakTests.swift", line: 42, column: 9)
      expectEqual(
        IssueMessage("leaked", plantedAt: site).textNamingPlantingSite,
        "leaked (planted at App/LeakTests.swift:42)")
      expectEqual(IssueMessage("run failed").textNamingPlantingSite, "run failed")
    }

    func testExpectNoLeaksFailsOncePerProblem() {
      // XCTFail writes "failed - " before the message; the scenario's own scope, which planted
      // nothing, adds its own failure when it ends.
      for (name, scenario, prefix) in [
        ("reportScenario", ScenarioCase.reportScenario, ""),
        ("globalReportScenario", ScenarioCase.globalReportScenario, "failed - "),
      ] {
        let run = ScenarioCase.run(name, scenario)
        let count = AdapterScenario.problemMessages.count
        expectEqual(
          run.failures.prefix(count).map(\.line), Array(repeating: run.expectedLine, count: count), name)
        expectEqual(run.failures.prefix(count).map(\.file), Array(repeating: thisFile, count: count), name)
        expectEqual(
          run.failures.map(\.description),
          AdapterScenario.problemMessages.map { prefix + $0 } + [ScenarioCase.unusedScope], name)
      }
    }
  }
#endif
