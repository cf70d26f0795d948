import Foundation

/// One operation of a path item turned into one planned exchange per request-body media type.
extension OpenAPIReader {
  /// Plants one operation: its path, parameters, security, response and one kind per supported
  /// request-body media type.
  mutating func read(
    _ operation: Object, method: String, path: String, shared: [Parameter], security rootSecurity: JSONValue?,
    at pointer: String
  ) throws {
    if method == "TRACE" {
      return collector.skip(pointer, "TRACE is not planted: URLSession refuses to send it")
    }
    if case .object(let callbacks) = operation["callbacks"], !callbacks.isEmpty {
      collector.skip(
        pointer + "/callbacks", "callbacks are not planted: the server calls them, the app does not send them"
      )
    }
    startOperationBudget()
    let own = try parameters(operation["parameters"], at: pointer + "/parameters")
    var merged: [Parameter] = []
    for parameter in shared + own {
      merged.removeAll { $0.name == parameter.name && $0.location == parameter.location }
      merged.append(parameter)
    }
    let operationID: String? = if case .string(let id) = operation["operationId"] { id } else { nil }
    var exchange = PlannedExchange(
      kindName: collector.uniqueName(prefix: "api", operationID ?? "\(method) \(path)"),
      summary: "\(method) \(path)" + (operationID.map { " (\($0))" } ?? ""), method: method, path: [])

    try plantPath(path, parameters: merged, in: &exchange, at: pointer)
    try plantParameters(merged, in: &exchange)

    try addSecurity(operation["security"] ?? rootSecurity, to: &exchange, at: pointer)
    try addResponse(operation["responses"], method: method, to: &exchange, at: pointer + "/responses")

    // Request bodies: one kind per supported media type.
    var bodies: [PlannedExchange.Body] = []
    if let bodyValue = operation["requestBody"] {
      let bodyPointer = pointer + "/requestBody"
      if method == "GET" || method == "HEAD" {
        collector.skip(
          bodyPointer, "a request body on \(method) is not planted: URLSession drops or refuses it")
      } else {
        bodies = try requestBodies(bodyValue, at: bodyPointer)
      }
    }
    let origin = "\(method) \(path)"
    if bodies.isEmpty {
      add(exchange, origin: origin, at: pointer)
    }
    for (index, body) in bodies.enumerated() {
      var withBody = exchange
      withBody.body = body
      if index > 0 {
        let suffix: String
        switch body {
        case .json: suffix = "json"
        case .form: suffix = "form"
        case .multipart: suffix = "multipart"
        case .text: suffix = "text"
        case .xml: suffix = "xml"
        }
        withBody.kindName = collector.uniqueName(prefix: exchange.kindName, suffix)
      }
      add(withBody, origin: origin, at: pointer)
    }
  }

  private mutating func add(_ exchange: PlannedExchange, origin: String, at pointer: String) {
    collector.add(exchange, origin: origin, pointer: pointer)
  }
}
