import Foundation
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct CookieStorageSinkTests {
  /// A fresh cookie storage of its own, as an ephemeral session would have.
  private func makeStorage() throws -> HTTPCookieStorage {
    try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
  }

  @Test func aSetCookieStoredByURLSessionLeaksItsValue() async throws {
    let server = try StoreSinkTestSupport.startServer()
    defer { server.stop() }
    let canary = SinkTestSupport.canary()
    server.on(.get, "/signin") { _ in
      .text("welcome").header("Set-Cookie", "sid=\(canary); Path=/; HttpOnly")
    }
    let storage = try makeStorage()
    let session = StoreSinkTestSupport.makeSession(cookies: storage)
    let sink = CookieStorageSink(storage: storage)
    let contents = try await SinkTestSupport.capture(sink) {
      _ = try await session.data(from: server.baseURL.appendingPathComponent("signin"))
    }
    #expect(contents.map(\.name) == ["cookies"])
    let text = String(decoding: try SinkTestSupport.bytes(of: contents[0]), as: UTF8.self)
    #expect(text.contains("sid=\(canary); Domain=127.0.0.1; Path=/"))
    #expect(text.contains("HttpOnly"))
  }

  @Test func aCookieWithoutTheCanaryIsScannedAndHoldsNone() async throws {
    let server = try StoreSinkTestSupport.startServer()
    defer { server.stop() }
    let canary = SinkTestSupport.canary()
    server.on(.get, "/signin") { _ in .text("welcome").header("Set-Cookie", "theme=dark; Path=/") }
    let storage = try makeStorage()
    let session = StoreSinkTestSupport.makeSession(cookies: storage)
    let contents = try await SinkTestSupport.capture(CookieStorageSink(storage: storage, name: "jar")) {
      _ = try await session.data(from: server.baseURL.appendingPathComponent("signin"))
    }
    #expect(contents.map(\.name) == ["jar"])
    #expect(try SinkTestSupport.anyContains(contents, "theme=dark"))
    #expect(try !SinkTestSupport.anyContains(contents, canary))
  }
}
