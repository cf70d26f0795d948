import Foundation
import Testing

@testable import CanaryTrap

@Suite struct UserDefaultsSinkTests {
  /// A settings store as an app would write one: a token, nested settings and encoded data.
  private func saveSession(token: String, in suiteName: String) throws {
    let defaults = try #require(UserDefaults(suiteName: suiteName))
    defaults.set(token, forKey: "lastToken")
    defaults.set(["account": ["email": "user@example.com", "recent": ["a", token]]], forKey: "settings")
    let archived = try PropertyListSerialization.data(
      fromPropertyList: ["refresh": token], format: .binary, options: 0)
    defaults.set(archived, forKey: "archivedSession")
  }

  @Test func valuesWrittenToASuiteAreFlattenedAndScanned() async throws {
    let suiteName = "canarytrap.tests.\(UUID().uuidString)"
    defer { UserDefaults(suiteName: suiteName)?.removePersistentDomain(forName: suiteName) }
    let canary = SinkTestSupport.canary()
    let sink = UserDefaultsSink(suiteName: suiteName)
    let contents = try await SinkTestSupport.capture(sink) {
      try saveSession(token: canary, in: suiteName)
    }
    #expect(contents.map(\.name) == ["user-defaults:\(suiteName)"])
    let text = String(decoding: try SinkTestSupport.bytes(of: contents[0]), as: UTF8.self)
    #expect(text.contains("lastToken = \(canary)\n"))
    #expect(text.contains("settings.account.recent[1] = \(canary)\n"))
    #expect(text.contains("archivedSession<plist>.refresh = \(canary)\n"))
  }

  @Test func aSuiteWithoutTheCanaryIsScannedAndHoldsNone() async throws {
    let suiteName = "canarytrap.tests.\(UUID().uuidString)"
    defer { UserDefaults(suiteName: suiteName)?.removePersistentDomain(forName: suiteName) }
    let canary = SinkTestSupport.canary()
    let contents = try await SinkTestSupport.capture(UserDefaultsSink(suiteName: suiteName)) {
      try saveSession(token: "<redacted>", in: suiteName)
    }
    #expect(try SinkTestSupport.anyContains(contents, "lastToken = <redacted>"))
    #expect(try !SinkTestSupport.anyContains(contents, canary))
  }
}
