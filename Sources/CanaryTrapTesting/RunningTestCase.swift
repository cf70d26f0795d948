import CanaryTrapPrimitives

#if canImport(XCTest)
  import CanaryTrap
  import Foundation
  import XCTest

  /// The XCTest test cases running now, learned by observing test runs, so that a failure can be
  /// recorded at any file and line: `XCTFail` takes only a literal file, and XCTest offers no
  /// public way to learn the running test case.
  ///
  /// The observer is added the first time an adapter needs it (``install()``); a failure recorded
  /// before it saw its test start falls back to the adapter's own call site.
  final class RunningTestCase: NSObject, XCTestObservation, @unchecked Sendable {
    /// The process-wide observer, added to XCTest's observation center when first used.
    private static let shared: RunningTestCase = {
      let observer = RunningTestCase()
      #if canImport(Darwin)
        // Apple's XCTest accepts observers only on the main thread (off it, it raises
        // "Test observers can only be registered and unregistered on the main thread"), and an
        // adapter runs on the cooperative pool; so it is registered from the main actor, a moment
        // later: until then failures fall back to the adapter's call site, as documented above.
        Task { @MainActor in XCTestObservationCenter.shared.addTestObserver(observer) }
      #else
        XCTestObservationCenter.shared.addTestObserver(observer)
      #endif
      return observer
    }()

    /// Test cases started and not yet finished, innermost last (a test may run another).
    private let running = Locked<[ObjectIdentifier]>([])
    private let cases = Locked<[ObjectIdentifier: Unowned]>([:])

    /// A test case held without keeping it alive.
    private struct Unowned: @unchecked Sendable {
      weak var testCase: XCTestCase?
    }

    /// Adds the observer to XCTest unless it already was.
    static func install() { _ = shared }

    /// The innermost test case running now, once the observer has seen it start.
    static var current: XCTestCase? {
      guard let id = shared.running.current.last else { return nil }
      return shared.cases.withLock { $0[id]?.testCase }
    }

    nonisolated func testCaseWillStart(_ testCase: XCTestCase) {
      let id = ObjectIdentifier(testCase)
      cases.withLock { $0[id] = Unowned(testCase: testCase) }
      running.withLock { $0.append(id) }
    }

    nonisolated func testCaseDidFinish(_ testCase: XCTestCase) {
      let id = ObjectIdentifier(testCase)
      running.withLock { stack in
        if let index = stack.lastIndex(of: id) { stack.remove(at: index) }
      }
      cases.withLock { $0[id] = nil }
    }
  }

  extension XCTestCase {
    /// Records `message` as a failure of this test at `file` and `line`, any path and line (not
    /// only a literal one, as `XCTFail` needs).
    func recordCanaryTrapFailure(_ message: String, file: String, line: Int) {
      #if canImport(Darwin)
        var issue = XCTIssue(type: .assertionFailure, compactDescription: message)
        issue.sourceCodeContext = XCTSourceCodeContext(
          location: XCTSourceCodeLocation(filePath: file, lineNumber: line))
        record(issue)
      #else
        recordFailure(withDescription: message, inFile: file, atLine: line, expected: true)
      #endif
    }
  }
#endif
