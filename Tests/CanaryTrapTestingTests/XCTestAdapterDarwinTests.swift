// The Apple-only branch of CanaryTrapTestCase: failures recorded as `XCTIssue`s with a source
// code context. Apple's XCTest runs a case made with `init(selector:)`, which
// swift-corelibs-xctest (Linux) lacks, and on Linux the adapter records through
// `recordFailure(withDescription:inFile:atLine:expected:)` instead (see XCTestAdapterTests), so
// these compile and run on Apple platforms only. Not yet run: written against Apple's XCTest
// documentation (XCTIssue, XCTSourceCodeContext, XCTSourceCodeLocation, XCTestCase.record(_:)).
#if canImport(XCTest) && canImport(Darwin)
  import CanaryTrap
  import CanaryTrapTesting
  import XCTest

  /// A CanaryTrapTestCase whose scenarios (not named `test…`, so never discovered on their own)
  /// are run by ``CanaryTrapTestCaseIssueTests``; it keeps the issues it records.
  final class IssueScenarioCase: CanaryTrapTestCase {
    struct Recorded {
      var type: XCTIssue.IssueType
      var description: String
      var file: String?
      var line: Int?
    }

    var recorded: [Recorded] = []
    var expectedLine = 0

    override var canaryTrapConfiguration: CanaryTrap.Configuration { AdapterScenario.quiet }

    /// Keeps the issue instead of reporting it: the adapter's `record(_:)` calls end here.
    override func record(_ issue: XCTIssue) {
      let location = issue.sourceCodeContext.location
      recorded.append(
        Recorded(
          type: issue.type, description: issue.compactDescription, file: location?.fileURL.path,
          line: location?.lineNumber))
    }

    /// Runs the scenario method `selector` as a test of this class and returns the case.
    static func run(_ selector: Selector) -> IssueScenarioCase {
      let testCase = IssueScenarioCase(selector: selector)
      testCase.run()
      return testCase
    }

    @objc func reportScenario() {
      expectedLine = #line + 1
      expectNoLeaks(AdapterScenario.problemReport)
    }

    @objc func plantedLeakScenario() {
      expectedLine = #line + 1
      let value = canary(.token, at: .requestHeader("X-Session"))
      memoryLog().write("GET /profile session=\(value)")
    }

    @objc func trapCanaryScenario() {
      let log = memoryLog(); expectedLine = #line + 1
      let value = trap.canary(.token, at: .requestHeader("X-Session"))
      log.write("GET /profile session=\(value)")
    }
  }

  final class CanaryTrapTestCaseIssueTests: XCTestCase {
    private let thisFile = URL(fileURLWithPath: "\(#filePath)").standardizedFileURL.path

    func testExpectNoLeaksRecordsOneAssertionIssuePerProblemAtItsLine() {
      let scenario = IssueScenarioCase.run(#selector(IssueScenarioCase.reportScenario))
      XCTAssertEqual(scenario.recorded.map(\.description), AdapterScenario.problemMessages)
      XCTAssertEqual(
        scenario.recorded.map(\.line), Array(repeating: scenario.expectedLine, count: 5))
      XCTAssertEqual(
        scenario.recorded.map { $0.file.map { URL(fileURLWithPath: $0).standardizedFileURL.path } },
        Array(repeating: thisFile, count: 5))
      XCTAssertTrue(scenario.recorded.allSatisfy { $0.type == .assertionFailure })
    }

    func testTearDownRecordsTheLeakAtTheFirstPlantingLine() {
      let scenario = IssueScenarioCase.run(#selector(IssueScenarioCase.plantedLeakScenario))
      XCTAssertTrue(
        scenario.recorded.contains { $0.description.hasPrefix(AdapterScenario.leakMessage) },
        "\(scenario.recorded.map(\.description))")
      XCTAssertEqual(
        Set(scenario.recorded.map(\.line)), [scenario.expectedLine],
        "every problem points at the canary(_:at:) line")
    }

    func testTrapCanaryLeakIsAnIssueAtItsPlantingLine() {
      let scenario = IssueScenarioCase.run(#selector(IssueScenarioCase.trapCanaryScenario))
      let leak = scenario.recorded.first { $0.description.hasPrefix(AdapterScenario.leakMessage) }
      XCTAssertEqual(leak?.line, scenario.expectedLine, "\(scenario.recorded.map(\.description))")
      XCTAssertEqual(leak?.file.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, thisFile)
      XCTAssertEqual(
        Set(scenario.recorded.map(\.line)), [scenario.expectedLine],
        "the undelivered canary points at its planting line too")
    }
  }
#endif
