import CanaryTrap
import Foundation
import Testing

@Suite("OpenAPI reader: bad documents and limits")
struct OpenAPIBoundsTests {
  func error(_ text: String, limits: ImportLimits = ImportLimits()) -> String {
    do {
      _ = try RequestKind.kinds(fromOpenAPI: Data(text.utf8), limits: limits)
      return "no error"
    } catch { return "\(error)" }
  }

  @Test("a malformed document gets a clear error naming where")
  func malformedDocumentsNameThePlace() {
    #expect(error("openapi: 3.0.0\ninfo: {}\n").contains("looks like YAML"))
    #expect(error("openapi: 3.0.0\ninfo: {}\n").contains("convert it first"))
    #expect(error(#"{"swagger": "2.0"}"#).hasPrefix("/swagger: Swagger 2.0 is not read"))
    #expect(error(#"{"info": {}}"#).hasPrefix("/openapi: missing"))
    #expect(error(#"{"openapi": "3.0.0", "paths": []}"#) == "/paths: must be an object")
    #expect(
      error(#"{"openapi": "3.0.0", "paths": {"/a": {"get": {"parameters": [{"name": "x"}]}}}}"#)
        == "/paths/~1a/get/parameters/0: parameter x needs \"in\" (path, query, header or cookie)")
    #expect(
      error(
        ##"{"openapi": "3.0.0", "paths": {"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Nope"}}}}}}}}"##
      )
        == "/paths/~1a/post/requestBody/content/application~1json/schema: $ref #/components/schemas/Nope points to nothing in this document"
    )
    #expect(
      error(#"{"openapi": "3.0.0", "paths": {"/a": {"get": {"security": [{"missing": []}]}}}}"#)
        .contains("security scheme missing is not defined"))
    #expect(
      error(#"{"openapi": "3.0.0", "paths": {"/a": {"get": {"parameters": [{"name": "x", "in": "body"}]}}}}"#)
        .contains("must be path, query, header or cookie"))
    #expect(error(#"{"openapi": "3.0.0", "paths": {"a": {}}}"#) == "/paths/a: a path must start with `/`")
    #expect(error(#"{"openapi": "3.0.0""#).contains("not valid JSON"))
  }

  @Test("size and nesting limits stop a hostile document before it is parsed")
  func sizeAndNesting() {
    var limits = ImportLimits()
    limits.maxDocumentBytes = 100
    #expect(
      error(String(repeating: " ", count: 101), limits: limits).contains("more than the limit of 100 bytes"))
    let deep =
      #"{"openapi": "3.0.0", "x": "# + String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
      + "}"
    #expect(error(deep).contains("deeper than 256 levels"))
  }

  static func document(operations: Int, properties: Int, depth: Int) -> String {
    var schema = #"{"type": "string"}"#
    for _ in 0..<depth { schema = #"{"type": "object", "properties": {"child": \#(schema)}}"# }
    let wide = (0..<properties).map { #""p\#($0)": \#(schema)"# }.joined(separator: ",")
    let paths = (0..<operations).map { index in
      #""/op\#(index)": {"post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {\#(wide)}}}}}}}"#
    }.joined(separator: ",")
    return #"{"openapi": "3.0.0", "paths": {\#(paths)}}"#
  }

  @Test("kinds, canaries per kind, schema depth and recorded skips are bounded and counted")
  func limitsAreKeptAndCounted() throws {
    var limits = ImportLimits()
    limits.maxKinds = 3
    limits.maxCanariesPerKind = 5
    limits.maxSchemaDepth = 4
    limits.maxSkippedRecorded = 2
    let kinds = try RequestKind.kinds(
      fromOpenAPI: Data(Self.document(operations: 6, properties: 10, depth: 6).utf8), limits: limits)
    #expect(kinds.kinds.count == 3)
    #expect(kinds.plans.allSatisfy { $0.locations.count <= 5 })
    #expect(kinds.skipped.count == 2)
    // Per operation planted: depth too deep (each property's chain) and the canary budget; then 3
    // operations refused by maxKinds.
    #expect(kinds.skippedCount > 6)
    let all = try RequestKind.kinds(
      fromOpenAPI: Data(Self.document(operations: 6, properties: 10, depth: 6).utf8),
      limits: {
        var l = limits; l.maxSkippedRecorded = 1_000; return l
      }())
    #expect(all.skipped.filter { $0.reason.contains("maxKinds") }.count == 3)
    #expect(all.skipped.contains { $0.reason.contains("maxSchemaDepth") })
    #expect(all.skipped.contains { $0.reason.contains("maxCanariesPerKind") })
  }

  @Test("a schema that refers to itself through a chain of components is planted once and reported")
  func referenceCyclesStop() throws {
    let text = #"""
      {"openapi": "3.0.0", "paths": {"/n": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}},
       "components": {"schemas": {
         "A": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"$ref": "#/components/schemas/B"}}},
         "B": {"type": "object", "properties": {"secret": {"type": "string"}, "back": {"$ref": "#/components/schemas/A"}}}}}}
      """#
    let kinds = try RequestKind.kinds(fromOpenAPI: Data(text.utf8))
    #expect(
      kinds.plans.first?.locations.map(\.location.description) == [
        "request.body.json[a]", "request.body.json[b.secret]",
      ])
    #expect(
      kinds.skipped.map(\.reason) == [
        "recursive $ref #/components/schemas/A: planted once, not again inside itself"
      ])
  }
}
