import CanaryTrap
import CanaryTrapTesting
import Foundation
import Testing

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Your project's OpenAPI 3.0/3.1 document in JSON (convert YAML first, see the DocC article
/// "Plant your own names"), relative to the folder of this file: the default is the package root
/// when this file sits in `Tests/<YourTarget>/`.
private let openAPIDocumentPath = "../../openapi.json"
/// Set to `true` to fail when the document holds anything that is not planted (an XML body, a
/// `oneOf` branch after the first…); otherwise each such construct is printed with its JSON pointer.
private let requireEveryConstructPlanted = false

/// Every operation of your OpenAPI document as one request kind: a canary in every path, query,
/// header and cookie parameter, every security credential, every request body property, and every
/// header and property of the success response, which the trap's server answers with.
///
/// Template from `canary init openapi`: set `openAPIDocumentPath` above, then replace the code
/// marked `// Replace with your API client` with your app's client.
@Suite(.canaryTrap) struct OpenAPILeakTests {
  @Test func everyOperationOfTheDocumentLogsNoSecret() async throws {
    let trap = try #require(CanaryTrap.current)  // fresh per test: canaries, server, sinks
    let imported = try RequestKind.kinds(fromOpenAPI: try openAPIDocument())
    if requireEveryConstructPlanted {
      _ = try imported.requireComplete()  // throws, listing every construct not planted
    } else {
      for construct in imported.skipped { print("not planted: \(construct)") }
    }
    try #require(!imported.kinds.isEmpty, "the OpenAPI document has no operation to plant")

    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), sending each request as given (it targets `trap.baseURL`),
    // logging to `log`.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.finishTasksAndInvalidate() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    let result = try await trap.runMatrix(through: transport, kinds: imported.kinds)
    for kind in result.kinds {
      #expect(kind.errors.isEmpty, "\(kind.name) did not go as planned: \(kind.errors)")
    }
  }  // the scope ends here: every sink is scanned; one issue per leak, undelivered canary or silent sink
}

/// The document at `openAPIDocumentPath`, or an error that says where it was looked for.
private func openAPIDocument(besides file: String = #filePath) throws -> Data {
  let url = URL(fileURLWithPath: file).deletingLastPathComponent()
    .appendingPathComponent(openAPIDocumentPath).standardizedFileURL
  guard FileManager.default.fileExists(atPath: url.path) else {
    throw MissingOpenAPIDocument(path: url.path, file: file)
  }
  return try Data(contentsOf: url)
}

/// No OpenAPI document where `openAPIDocumentPath` points.
private struct MissingOpenAPIDocument: Error, CustomStringConvertible {
  let path: String
  let file: String
  var description: String {
    "no OpenAPI document at \(path): set `openAPIDocumentPath` at the top of "
      + "\(URL(fileURLWithPath: file).lastPathComponent) to your JSON document, relative to that file's folder"
  }
}

/// Replace with your API client: this stand-in sends through `session` and logs one line per
/// exchange with the method, the route's first path segment (where the trap's tracer sits, so the
/// scope sees the log was written during the run), the status and the size, as a client with a
/// careful logger does. Delete it once the test builds your client instead.
private func standInClient(_ session: URLSession, logging log: MemoryLog) -> Transport {
  let network = Transport.urlSession(session)
  return Transport { request in
    let (data, response) = try await network.send(request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    let route = request.url?.pathComponents.dropFirst().first ?? ""
    log.write("\(request.httpMethod ?? "GET") /\(route)/… → \(status) \(data.count) bytes")
    return (data, response)
  }
}
