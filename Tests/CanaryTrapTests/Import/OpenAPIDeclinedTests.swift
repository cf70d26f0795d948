import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Parameters an OpenAPI document marks \"x-canary\": false")
struct OpenAPIDeclinedTests {
  /// A document with four parameters that are not secret and one that is; `marked` adds
  /// `"x-canary": false` to the four.
  static func document(marked: Bool) -> Data {
    let mark = marked ? #", "x-canary": false"# : ""
    return Data(
      """
      {"openapi": "3.0.3", "info": {"title": "pets", "version": "1"},
       "paths": {"/pets/{kind}": {"get": {"operationId": "listPets", "parameters": [
         {"name": "kind", "in": "path", "required": true\(mark), "schema": {"type": "string", "enum": ["dog", "cat"]}},
         {"name": "limit", "in": "query"\(mark), "schema": {"type": "integer", "example": 20}},
         {"name": "sort", "in": "query"\(mark), "schema": {"type": "string", "default": "name asc"}},
         {"name": "X-Trace", "in": "header"\(mark), "schema": {"type": "string"}},
         {"name": "partnerKey", "in": "query", "schema": {"type": "string"}}],
         "responses": {"204": {"description": "nothing"}}}}}}
      """.utf8)
  }

  /// Logs each request's whole URL and its headers, as a careless client does.
  static func wholeURLLogger(_ base: Transport, _ log: MemoryLog) -> Transport {
    Transport { request in
      log.write("-> \(request.url?.absoluteString ?? "?")")
      for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
        log.write("   \(name): \(value)")
      }
      return try await base.send(request)
    }
  }

  static func leaked(_ document: Data) async throws -> (kinds: ImportedKinds, leaked: Set<String>) {
    let kinds = try RequestKind.kinds(fromOpenAPI: document)
    let result = await OpenAPIKindTests.matrix(kinds.kinds) { wholeURLLogger($0, $1) }
    let report = try #require(result.report)
    #expect(result.undelivered.isEmpty, "\(result.undelivered)")
    return (kinds, Set(report.leakedLocations.map(\.description)))
  }

  @Test("marked parameters are sent with their example or a plain value, listed as declined, never planted")
  func markedParametersAreNotPlanted() async throws {
    let (kinds, leaked) = try await Self.leaked(Self.document(marked: true))
    #expect(leaked == ["request.url.query[partnerKey]"], "only the unmarked parameter is a canary")
    #expect(kinds.isComplete, "declining is the document's choice, not a gap: \(kinds.skipped)")
    #expect(kinds.declinedCount == 4)
    #expect(
      kinds.declined.map(\.reason) == [
        "kind is marked \"x-canary\": false: sent as `dog`",
        "limit is marked \"x-canary\": false: sent as `20`",
        "sort is marked \"x-canary\": false: sent as `x`",
        "X-Trace is marked \"x-canary\": false: sent as `x`",
      ])
  }

  @Test("past the listing limit, declined parameters are counted, not listed")
  func declinedListIsBounded() throws {
    var limits = ImportLimits()
    limits.maxSkippedRecorded = 2
    let kinds = try RequestKind.kinds(fromOpenAPI: Self.document(marked: true), limits: limits)
    #expect(kinds.declined.count == 2)
    #expect(kinds.declinedCount == 4)
    #expect(kinds.isComplete)
  }

  @Test("the twin: without the mark, the same parameters are planted and the same logger leaks them")
  func unmarkedParametersArePlantedAndLeak() async throws {
    let (kinds, leaked) = try await Self.leaked(Self.document(marked: false))
    #expect(kinds.declined.isEmpty)
    #expect(
      leaked == [
        "request.url.path[3]", "request.url.query[limit]", "request.url.query[sort]",
        "request.header[X-Trace]",
        "request.url.query[partnerKey]",
      ])
  }
}
