import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// `canary kinds`: what an OpenAPI document or a HAR archive plants.
@Suite struct KindsCommandTests {
  static let openAPI = #"""
    {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
     "paths": {"/items/{itemId}": {"get": {"operationId": "getItem",
       "parameters": [{"name": "itemId", "in": "path", "required": true, "schema": {"type": "string"}},
                      {"name": "apiKey", "in": "query", "schema": {"type": "string"}}],
       "responses": {"200": {"description": "ok", "content": {"application/xml": {}}}}}}}}
    """#

  func run(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
    let captured = CapturedIO()
    let status = await CommandLineTool.run(["kinds"] + arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  func file(_ text: String, _ suffix: String = "json") throws -> (path: String, remove: () -> Void) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "kinds-\(UUID().uuidString).\(suffix)")
    try Data(text.utf8).write(to: url)
    return (url.path, { try? FileManager.default.removeItem(at: url) })
  }

  @Test func printsEveryPlantedLocationAndWhatWasNotPlanted() async throws {
    let (path, remove) = try file(Self.openAPI)
    defer { remove() }
    let result = await run(["--openapi", path])
    #expect(result.status == ExitStatus.success)
    #expect(result.output.contains("api-getitem  GET /items/{itemId}  (2 canaries)"))
    #expect(result.output.contains("  request.url.query[apiKey]  [token]"))
    #expect(result.output.contains("1 kinds, 2 canaries, 1 not planted"))
    #expect(
      result.output.contains(
        "/paths/~1items~1{itemId}/get/responses/200/content/application~1xml: response media type"))
    #expect(result.error.contains("1 construct(s)"))
    let strict = await run(["--openapi", path, "--strict"])
    #expect(strict.status == ExitStatus.inconclusive)
  }

  @Test func printsJSON() async throws {
    let (path, remove) = try file(Self.openAPI)
    defer { remove() }
    let result = await run(["--openapi", path, "--json"])
    #expect(result.status == ExitStatus.success)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(object["canaries"] as? Int == 2)
    #expect(object["skippedCount"] as? Int == 1)
    let kinds = try #require(object["kinds"] as? [[String: Any]])
    #expect(kinds.first?["name"] as? String == "api-getitem")
  }

  @Test func readsHAR() async throws {
    let har =
      #"{"log": {"entries": [{"request": {"method": "GET", "url": "http://x.example/a?token=t1", "headers": []}, "response": {"status": 200}}]}}"#
    let (path, remove) = try file(har, "har")
    defer { remove() }
    let result = await run(["--har", path])
    #expect(result.status == ExitStatus.success)
    #expect(result.output.contains("request.url.query[token]"))
    #expect(result.output.contains("1 kinds, 1 canaries, 0 not planted"))
  }

  @Test func badInputSaysWhatIsWrongAndWhere() async throws {
    let (yaml, removeYAML) = try file("openapi: 3.0.0\npaths: {}\n", "yaml")
    defer { removeYAML() }
    let result = await run(["--openapi", yaml])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("looks like YAML"))
    let (broken, removeBroken) = try file(
      #"{"openapi": "3.0.0", "paths": {"/a": {"get": {"parameters": [{"in": "query"}]}}}}"#)
    defer { removeBroken() }
    let malformed = await run(["--openapi", broken])
    #expect(malformed.status == ExitStatus.usage)
    #expect(
      malformed.error.contains("/paths/~1a/get/parameters/0: a parameter needs a non-empty string \"name\""))
    #expect(await run([]).status == ExitStatus.usage)
    #expect(await run(["--openapi", "/nonexistent/x.json"]).error.contains("cannot read"))
    #expect(await run(["--openapi", yaml, "--har", yaml]).status == ExitStatus.usage)
  }
}
