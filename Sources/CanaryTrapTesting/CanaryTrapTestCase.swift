import CanaryTrapPrimitives

#if canImport(XCTest)
  import CanaryTrap
  import Foundation
  import XCTest

  /// An XCTest base class that runs each test in a fresh CanaryTrap scope, ``trap``, and fails
  /// the test once per leak, undelivered canary, silent or failed sink and error when it ends.
  ///
  /// A leak, or a canary that never arrived, fails the test at the line that planted the canary
  /// (``canary(_:at:fileID:file:line:column:)``, `trap.canary(_:at:)` or `trap.runMatrix(through:)`).
  /// Other failures point at the line of the test's ``expectNoLeaks(file:line:)`` call when it
  /// makes one, else at the first ``canary(_:at:fileID:file:line:column:)`` or
  /// ``memoryLog(_:file:line:)`` it called on the test case (a test that only uses `trap` directly
  /// gets those failures without a useful line; XCTest offers no way to learn a test method's file). Subclasses that override `setUp() async throws` or
  /// `tearDown() async throws` must call `super`.
  open class CanaryTrapTestCase: XCTestCase {
    private var session: ScopeSession?
    private let failureSite = Locked<(file: String, line: Int)?>(nil)
    /// The failures XCTest recorded during the test, to tell whether it recorded the error that
    /// stopped the run (thrown by the test method) before `tearDown`.
    private let recordedFailures = Locked<[String]>([])

    /// The configuration each test's scope gets; override to add sinks or a report directory.
    open var canaryTrapConfiguration: CanaryTrap.Configuration { CanaryTrap.Configuration() }

    /// Leaks each test accepts; override for a component known to leak. Each that occurs is
    /// summarised as one expected failure (on Apple platforms; elsewhere it is not recorded), each
    /// that does not occur fails the test.
    open var knownLeaks: [KnownLeak] { [] }

    /// This test's scope, available between `setUp` and `tearDown`.
    public var trap: CanaryTrap {
      guard let session else {
        preconditionFailure(
          "CanaryTrapTestCase.trap is available only while a test runs; call super.setUp()")
      }
      return session.trap
    }

    /// Starts a fresh scope for the test.
    open override func setUp() async throws {
      try await super.setUp()
      RunningTestCase.install()
      failureSite.withLock { $0 = nil }
      recordedFailures.withLock { $0 = [] }
      let name = name
      let session = ScopeSession(
        title: name, configuration: canaryTrapConfiguration, sourceLocation: nil, knownLeaks: knownLeaks)
      await session.start()
      self.session = session
    }

    /// Ends the scope and fails the test once per problem of its report; when the test method
    /// threw the error that stopped the run, XCTest recorded it first and it is not recorded again.
    ///
    /// XCTest hands a test case only the text of what it records, so the error the method threw
    /// is known by the scope instead: the error that stopped the run reached the test's own code
    /// (``CanaryTrap/start()`` or `runMatrix` threw it) and XCTest recorded a failure.
    open override func tearDown() async throws {
      if let session {
        self.session = nil
        let trap = session.trap
        let causeIsRecorded = trap.stopCauseReachedTest && !recordedFailures.current.isEmpty
        if let outcome = await session.finish(thrown: causeIsRecorded ? trap.thrownStopCause : nil) {
          recordProblems(outcome.messages, at: failureSite.current)
          recordKnownProblems(outcome.knownMessages, at: failureSite.current)
        }
      }
      try await super.tearDown()
    }

    /// Mints a canary for `location` in this test's scope; a leak of it fails the test at this
    /// line, which is also remembered for failures that have no line of their own.
    public func canary(
      _ shape: CanaryShape, at location: CanaryLocation, fileID: StaticString = #fileID,
      file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> String {
      rememberSite(file: file, line: line)
      return trap.canary(shape, at: location, fileID: fileID, filePath: file, line: line, column: column)
    }

    /// A memory log registered with this test's scope; remembers this line for failures.
    public func memoryLog(
      _ name: String = "memory-log", file: StaticString = #filePath, line: UInt = #line
    ) -> MemoryLog {
      rememberSite(file: file, line: line)
      return trap.memoryLog(name)
    }

    /// Ends this test's scope now and fails the test once per problem at this line; the scope
    /// records nothing more in `tearDown`.
    @discardableResult
    public func expectNoLeaks(file: StaticString = #filePath, line: UInt = #line) async
      -> LeakReport?
    {
      guard let session else {
        recordProblems(
          [IssueMessage("expectNoLeaks() called outside a running test")], at: ("\(file)", Int(line)))
        return nil
      }
      let outcome = await session.finish(thrown: nil)
      self.session = nil
      recordProblems(outcome?.messages ?? [], at: ("\(file)", Int(line)))
      recordKnownProblems(outcome?.knownMessages ?? [], at: ("\(file)", Int(line)))
      return outcome?.report
    }

    /// Fails the test once per problem of `report` (for instance one from `runMatrix` or another
    /// scope) at this line; a clean report records nothing (for the package's own tests).
    package func expectNoLeaks(
      _ report: LeakReport, file: StaticString = #filePath, line: UInt = #line
    ) {
      recordProblems(report.issueMessages(), at: ("\(file)", Int(line)))
    }

    #if canImport(Darwin)
      /// Records `issue`, remembering its description.
      open override func record(_ issue: XCTIssue) {
        rememberRecordedFailure(issue.compactDescription)
        super.record(issue)
      }
    #else
      /// Records a failure, remembering its description.
      open override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
      ) {
        rememberRecordedFailure(description)
        super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
    #endif

    /// Remembers a failure XCTest recorded for this test (a subclass that keeps failures from
    /// XCTest, as the package's own tests do, calls it itself).
    func rememberRecordedFailure(_ description: String) {
      recordedFailures.withLock { $0.append(description) }
    }

    private func rememberSite(file: StaticString, line: UInt) {
      failureSite.withLock { site in
        if site == nil { site = ("\(file)", Int(line)) }
      }
    }

    /// Records each message as an expected failure at `site` where XCTest has them (Apple platforms).
    private func recordKnownProblems(_ messages: [String], at site: (file: String, line: Int)?) {
      #if canImport(Darwin)
        for message in messages {
          XCTExpectFailure(AcceptedLeak.comment) { recordProblems([IssueMessage(message)], at: site) }
        }
      #endif
    }

    /// Records each message as a failure at the line that planted its canary, else at `site`,
    /// else without a line.
    private func recordProblems(_ messages: [IssueMessage], at site: (file: String, line: Int)?) {
      for message in messages {
        if let planted = message.plantedAt {
          recordCanaryTrapFailure(message.text, file: planted.filePath, line: planted.line)
        } else if let site {
          recordCanaryTrapFailure(message.text, file: site.file, line: site.line)
        } else {
          #if canImport(Darwin)
            record(XCTIssue(type: .assertionFailure, compactDescription: message.text))
          #else
            recordFailure(withDescription: message.text, inFile: "<CanaryTrap>", atLine: 0, expected: true)
          #endif
        }
      }
    }
  }
#endif
