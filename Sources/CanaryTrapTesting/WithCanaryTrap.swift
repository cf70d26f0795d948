import CanaryTrap
import Foundation

#if canImport(Testing)
  import Testing
#endif

/// Runs `body` inside a fresh CanaryTrap scope, reachable as `CanaryTrap.current`, then scans every
/// sink and records one issue per leak, undelivered canary, silent or failed sink and error at the
/// line this call was written on, in Swift Testing or XCTest, whichever runs the test.
///
/// A scope that cannot start is recorded as an issue and `body` still runs, so that the function
/// can rethrow exactly what `body` throws. When `CANARY_TRAP_REPORT_DIR` (or the configuration's
/// report directory) is set, the report is written there in every format. Leaks matching
/// `knownLeaks` are summarised in one known issue each; a known leak that does not occur is an issue.
@discardableResult
public func withCanaryTrap<R>(
  title: String? = nil,
  configuration: CanaryTrap.Configuration = CanaryTrap.Configuration(),
  knownLeaks: [KnownLeak] = [],
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column,
  _ body: (CanaryTrap) async throws -> R
) async rethrows -> R {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  let destination = IssueDestination.detect(at: site)
  let name = title ?? TestIdentity.currentName ?? "\(fileID):\(line)"
  let session = ScopeSession(
    title: name, configuration: configuration, sourceLocation: site.reportLocation, knownLeaks: knownLeaks)
  await session.start()
  let trap = session.trap
  do {
    let result = try await CanaryTrap.$current.withValue(trap) { try await body(trap) }
    if let outcome = await session.finish(thrown: nil) { destination.record(outcome) }
    return result
  } catch {
    if let outcome = await session.finish(thrown: error) { destination.record(outcome) }
    throw error
  }
}

/// Records one issue per problem of `report` (leak, undelivered canary, silent or failed source,
/// error) at the line this call was written on: a Swift Testing issue when a Swift Testing test is
/// running on this task, an XCTest failure otherwise. A clean report records nothing. Leaks
/// matching `knownLeaks` are summarised in one known issue each; a known leak that does not occur
/// is an issue. The package's own tests use it on reports they build; users end a scope with
/// ``expectNoLeaks(in:except:fileID:filePath:line:column:)``.
package func expectNoLeaks(
  _ report: LeakReport, except knownLeaks: [KnownLeak] = [],
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  IssueDestination.detect(at: site).record(ScopeOutcome(report, knownLeaks: knownLeaks))
}

/// Finishes `trap` now (by default the current scope), writes its report files when a report
/// directory is set, records one issue per problem at this line, and returns the report; the
/// scope then records nothing more when it ends.
///
/// This is how a test asserts on the report of a component known to leak, inside its body: pass
/// the leaks it accepts as `knownLeaks` (each is summarised in one known issue, and one that does
/// not occur is an issue), then check the returned report.
@discardableResult
public func expectNoLeaks(
  in trap: CanaryTrap? = CanaryTrap.current, except knownLeaks: [KnownLeak] = [],
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) async -> LeakReport? {
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  let destination = IssueDestination.detect(at: site)
  guard let trap else {
    destination.record(["expectNoLeaks(in:) found no CanaryTrap scope: use .canaryTrap or withCanaryTrap"])
    return nil
  }
  guard let outcome = await ReportedScopes.shared.finishOnce(trap, knownLeaks: knownLeaks) else {
    destination.record(["this CanaryTrap scope was already finished and reported"])
    return nil
  }
  destination.record(outcome)
  return outcome.report
}

/// The name of the running test, for report titles and file names.
enum TestIdentity {
  /// `Suite.test()` for the Swift Testing test running on this task, or nil.
  static var currentName: String? {
    #if canImport(Testing)
      if let test = Test.current { return name(of: test) }
    #endif
    return nil
  }

  #if canImport(Testing)
    /// The test's suite names and its own name, joined by dots.
    static func name(of test: Test) -> String {
      let components = test.id.nameComponents
      return components.isEmpty ? test.name : components.joined(separator: ".")
    }
  #endif
}
