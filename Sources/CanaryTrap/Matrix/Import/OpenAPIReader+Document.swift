import Foundation

/// The top of an OpenAPI document: its version, what is declined as a whole (webhooks, Swagger
/// 2.0), and each operation of each path item.
extension OpenAPIReader {
  /// Reads every operation of the document into the collector; throws when the document is not
  /// OpenAPI 3 or its paths are malformed.
  mutating func read() throws {
    guard case .object(let document) = root else { throw malformed("", "the document is not a JSON object") }
    if case .string(let version) = document["openapi"] {
      guard version.hasPrefix("3.") else {
        throw malformed("/openapi", "version \(version) is not read; only OpenAPI 3.0 and 3.1 are")
      }
    } else if document["swagger"] != nil {
      throw malformed(
        "/swagger", "Swagger 2.0 is not read; convert it to OpenAPI 3 first (e.g. with swagger2openapi)")
    } else {
      throw malformed("/openapi", "missing: not an OpenAPI document (it needs \"openapi\": \"3.x.y\")")
    }
    if document["webhooks"] != nil {
      collector.skip("/webhooks", "webhooks are not planted: the app receives them, it does not send them")
    }
    guard let pathsValue = document["paths"] else {
      collector.skip("/paths", "the document has no paths, so no operation to plant")
      return
    }
    guard case .object(let paths) = pathsValue else { throw malformed("/paths", "must be an object") }
    let security = document["security"]
    for path in paths.keys.sorted() {
      let pointer = JSONPointer.child("/paths", path)
      guard path.hasPrefix("/") else { throw malformed(pointer, "a path must start with `/`") }
      let item = try resolved(paths[path]!, at: pointer).0
      guard case .object(let itemObject) = item else {
        throw malformed(pointer, "a path item must be an object")
      }
      let shared = try parameters(itemObject["parameters"], at: pointer + "/parameters")
      for method in Self.methods {
        guard let operationValue = itemObject[method] else { continue }
        let operationPointer = pointer + "/" + method
        guard case .object(let operation) = operationValue else {
          throw malformed(operationPointer, "an operation must be an object")
        }
        try read(
          operation, method: method.uppercased(), path: path, shared: shared, security: security,
          at: operationPointer)
      }
    }
  }
}
