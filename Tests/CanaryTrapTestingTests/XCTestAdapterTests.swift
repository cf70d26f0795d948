// XCTestCase(name:testClosure:) and asyncTest exist only in swift-corelibs-xctest, so these run on
// Linux (and other non-Darwin platforms).
#if canImport(XCTest) && !canImport(Darwin)
  @testable import CanaryTrapTesting
  import XCTest

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

    func testPlantedLeakFailsOnceAtItsPlantingLine() {
      let scenario = ScenarioCase.run("leakyScenario", ScenarioCase.leakyScenario)
      XCTAssertEqual(scenario.failures.map(\.line), [scenario.expectedLine])
      XCTAssertEqual(scenario.failures.map(\.file), [thisFile])
      XCTAssertTrue(
        scenario.failures.first?.description.hasPrefix(AdapterScenario.leakMessage) == true,
        "\(scenario.failures)")
    }

    func testCleanTestRecordsNoFailure() {
      let scenario = ScenarioCase.run("cleanScenario", ScenarioCase.cleanScenario)
      XCTAssertEqual(scenario.failures.map(\.description), [])
    }

    func testExpectNoLeaksPointsTheLeakAtItsPlantingLineAndTearDownAddsNothing() {
      let scenario = ScenarioCase.run(
        "explicitExpectationScenario", ScenarioCase.explicitExpectationScenario)
      XCTAssertEqual(scenario.failures.map(\.line), [scenario.expectedLine])
      XCTAssertTrue(
        scenario.failures.first?.description.hasPrefix(AdapterScenario.leakMessage) == true)
    }

    func testTrapCanaryLeakFailsAtItsPlantingLineAndOtherProblemsAtTheFirstSite() {
      let scenario = ScenarioCase.run("trapCanaryScenario", ScenarioCase.trapCanaryScenario)
      XCTAssertEqual(scenario.failures.map(\.line), [scenario.expectedLine, scenario.expectedLine - 1])
      XCTAssertEqual(scenario.failures.map(\.file), [thisFile, thisFile])
      XCTAssertTrue(scenario.failures.first?.description.hasPrefix(AdapterScenario.leakMessage) == true)
      XCTAssertEqual(scenario.failures.last?.description, "the run failed: the transport gave up")
    }

    func testMatrixLeaksFailAtTheRunMatrixLine() {
      let scenario = ScenarioCase.run("matrixScenario", ScenarioCase.matrixScenario)
      XCTAssertFalse(scenario.failures.isEmpty)
      for failure in scenario.failures {
        XCTAssertEqual(failure.line, scenario.expectedLine, failure.description)
        XCTAssertEqual(failure.file, thisFile)
        XCTAssertTrue(failure.description.hasPrefix("canary planted in request."), failure.description)
      }
    }

    func testAStoppedRunFailsWithItsCauseFirstOnceThenOneSummary() {
      let scenario = ScenarioCase.run("stoppedRunScenario", ScenarioCase.stoppedRunScenario)
      XCTAssertEqual(
        scenario.failures.map(\.description),
        [
          #"threw error "\#(StopCauseTests.plantingFailure)""#,
          "the run stopped before it could be judged because of the error the test threw, which left 2 canaries"
            + " never delivered (request.url.query[session], request.url.query[email]) and 1 sink that heard"
            + " nothing (memory-log): see its report (CANARY_TRAP_REPORT_DIR) for each",
        ])
    }

    func testWithCanaryTrapFailsAtThePlantingLineOnceTheObserverRuns() {
      RunningTestCase.install()  // as the first CanaryTrapTestCase or withCanaryTrap of a process does
      let scenario = ScenarioCase.run("withCanaryTrapScenario", ScenarioCase.withCanaryTrapScenario)
      XCTAssertEqual(scenario.failures.map(\.line), [AdapterScenario.runPlantingLine])
      XCTAssertEqual(scenario.failures.map { $0.file.hasSuffix("/AdapterScenario.swift") }, [true])
      XCTAssertTrue(
        scenario.failures.first?.description.hasPrefix(AdapterScenario.leakMessage) == true)
    }

    func testAFailureWithNoKnownTestCaseNamesThePlantingLineInItsText() {
      let site = ReportSourceLocation(
        fileID: "App/LeakTests.swift", filePath: "/p/LeakTests.swift", line: 42, column: 9)
      XCTAssertEqual(
        IssueMessage("leaked", plantedAt: site).textNamingPlantingSite,
        "leaked (planted at App/LeakTests.swift:42)")
      XCTAssertEqual(IssueMessage("run failed").textNamingPlantingSite, "run failed")
    }

    func testExpectNoLeaksFailsOncePerProblem() {
      for (name, scenario) in [
        ("reportScenario", ScenarioCase.reportScenario),
        ("globalReportScenario", ScenarioCase.globalReportScenario),
      ] {
        let run = ScenarioCase.run(name, scenario)
        XCTAssertEqual(
          run.failures.map(\.line),
          Array(repeating: run.expectedLine, count: AdapterScenario.problemMessages.count), name)
        XCTAssertEqual(run.failures.map(\.file), Array(repeating: thisFile, count: 5), name)
        XCTAssertEqual(
          run.failures.map(\.description), AdapterScenario.problemMessages.map { "\($0)" }, name)
      }
    }
  }
#endif
