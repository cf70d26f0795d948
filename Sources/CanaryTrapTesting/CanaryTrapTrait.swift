#if canImport(Testing)
  import CanaryTrap
  import Foundation
  import Testing

  /// A Swift Testing trait that runs each test in a fresh CanaryTrap scope, reachable as
  /// `CanaryTrap.current`, and records one issue per leak, undelivered canary, silent or failed
  /// sink and error where the trait was written.
  ///
  /// On a suite it applies to every test in it (``isRecursive``); a test's own `.canaryTrap` wins
  /// over its suite's.
  public struct CanaryTrapTrait: TestTrait, SuiteTrait, TestScoping {
    /// The scope's configuration: sinks, scan options, standard stream capture, report directory.
    package var configuration: CanaryTrap.Configuration
    /// Where issues are recorded; nil records them at the test's own declaration.
    package var sourceLocation: SourceLocation?
    /// Leaks the tests accept: each that occurs is one known issue, each that does not is an issue.
    package var knownLeaks: [KnownLeak]
    /// Tells this trait apart from another `.canaryTrap` on the same test.
    private let identity = UUID()

    /// Creates the trait; prefer `.canaryTrap` or `.canaryTrap(_:sourceLocation:)`.
    package init(
      configuration: CanaryTrap.Configuration, sourceLocation: SourceLocation?, knownLeaks: [KnownLeak] = []
    ) {
      self.configuration = configuration
      self.sourceLocation = sourceLocation
      self.knownLeaks = knownLeaks
    }

    /// A suite's trap applies to each of its tests, not to the suite as a whole.
    public var isRecursive: Bool { true }

    /// Chooses where a scope runs: around each test case (each argument of a parameterized test
    /// gets its own scope), never around a suite or a whole parameterized function, and only for
    /// the innermost `.canaryTrap` when a test and its suite both carry one.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
      guard !test.isSuite, testCase != nil, isInnermost(in: test) else { return nil }
      return self
    }

    /// Runs the test case in a fresh scope, then records the scope's problems; Swift Testing calls
    /// it only where ``scopeProvider(for:testCase:)`` chose this trait.
    public func provideScope(
      for test: Test, testCase: Test.Case?,
      performing function: @Sendable () async throws -> Void
    ) async throws {
      let location = sourceLocation ?? test.sourceLocation
      let name = TestIdentity.name(of: test)
      let session = ScopeSession(
        title: name, configuration: configuration,
        sourceLocation: ReportSourceLocation(
          fileID: location.fileID, filePath: location.reportFilePath, line: location.line,
          column: location.column),
        knownLeaks: knownLeaks)
      await session.start()
      let trap = session.trap
      let destination = IssueDestination.swiftTesting(location)
      do {
        try await CanaryTrap.$current.withValue(trap) { try await function() }
        if let outcome = await session.finish(thrown: nil) { destination.record(outcome) }
      } catch {
        // The error that stopped the run (the scope could not start, a kind could not plant) is
        // recorded here, as the first issue, with what it left undone summarised after it; any
        // other error is rethrown, for Swift Testing to record.
        let stoppedTheRun = trap.isStopCause(error)
        guard let outcome = await session.finish(thrown: error, rethrown: !stoppedTheRun) else {
          throw error
        }
        destination.record(outcome)
        if !stoppedTheRun { throw error }
      }
    }

    /// Whether this is the last `.canaryTrap` among the test's traits (a suite's come first), so
    /// that a test marked both on its suite and on itself gets one scope.
    private func isInnermost(in test: Test) -> Bool {
      let traps = test.traits.compactMap { $0 as? CanaryTrapTrait }
      return traps.last?.identity == identity || traps.isEmpty
    }
  }

  extension SourceLocation {
    /// The location's file path under the name this compiler's Swift Testing gives it:
    /// `filePath` from Swift 6.3, `_filePath` (the only spelling) in Swift 6.2.
    var reportFilePath: String {
      #if compiler(>=6.3)
        filePath
      #else
        _filePath
      #endif
    }
  }

  extension Trait where Self == CanaryTrapTrait {
    /// Runs each test in a fresh CanaryTrap scope with the default configuration, recording issues
    /// at the test's declaration.
    public static var canaryTrap: CanaryTrapTrait {
      CanaryTrapTrait(configuration: CanaryTrap.Configuration(), sourceLocation: nil)
    }

    /// Runs each test in a fresh CanaryTrap scope configured by `configuration`, recording issues
    /// where this trait is written; leaks matching `knownLeaks` are summarised as known issues.
    public static func canaryTrap(
      _ configuration: CanaryTrap.Configuration = CanaryTrap.Configuration(),
      knownLeaks: [KnownLeak] = [],
      sourceLocation: SourceLocation = #_sourceLocation
    ) -> CanaryTrapTrait {
      CanaryTrapTrait(configuration: configuration, sourceLocation: sourceLocation, knownLeaks: knownLeaks)
    }
  }
#endif
