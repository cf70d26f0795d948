// XCTestCase(name:testClosure:) and asyncTest exist only in swift-corelibs-xctest, so these run on
// Linux (and other non-Darwin platforms).
#if canImport(XCTest) && !canImport(Darwin)
  import CanaryTrapTesting
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
      let log = memoryLog(); expectedLine = #line
      let value = canary(.token, at: .requestHeader("X-Session"))
      try await AdapterScenario.plantAndSend(in: trap, log: log, value: value, leak: true)
    }

    func cleanScenario() async throws {
      let log = memoryLog()
      let value = canary(.token, at: .requestHeader("X-Session"))
      try await AdapterScenario.plantAndSend(in: trap, log: log, value: value, leak: false)
    }

    func explicitExpectationScenario() async throws {
      let log = memoryLog()
      let value = canary(.token, at: .requestHeader("X-Session"))
      try await AdapterScenario.plantAndSend(in: trap, log: log, value: value, leak: true)
      expectedLine = #line + 1
      await expectNoLeaks()
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

    func testPlantedLeakFailsOnceAtTheFirstPlantingLine() {
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

    func testExpectNoLeaksFailsAtItsLineAndTearDownAddsNothing() {
      let scenario = ScenarioCase.run(
        "explicitExpectationScenario", ScenarioCase.explicitExpectationScenario)
      XCTAssertEqual(scenario.failures.map(\.line), [scenario.expectedLine])
      XCTAssertTrue(
        scenario.failures.first?.description.hasPrefix(AdapterScenario.leakMessage) == true)
    }

    func testWithCanaryTrapReportsToXCTestWhenNoSwiftTestingTestRuns() {
      let scenario = ScenarioCase.run("withCanaryTrapScenario", ScenarioCase.withCanaryTrapScenario)
      XCTAssertEqual(scenario.failures.map(\.line), [scenario.expectedLine])
      XCTAssertEqual(scenario.failures.map(\.file), [thisFile])
      XCTAssertTrue(
        scenario.failures.first?.description.hasPrefix(AdapterScenario.leakMessage) == true)
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
