import CanaryTrap
import CanaryTrapTesting
import Foundation
import XCTest

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A multipart upload: a text field, a file's content and the file's name, each of which may carry
/// personal data.
///
/// Template from `canary init multipart --xctest`: replace the code marked
/// `// Replace with your API client` with your app's client, and keep every planted location your
/// request can carry.
final class MultipartUploadLeakXCTests: CanaryTrapTestCase {
  /// Replace with your request kind: a multipart upload with a text field, a file and its
  /// filename, answered `201` with an upload ID.
  static let upload = RequestKind(
    name: "uploads", summary: "a multipart upload with a text field, a file and its filename"
  ) { p in
    let caption = p.canary(.token, at: .requestBody(.multipartField("caption")))
    let content = p.canary(.uuid, at: .requestBody(.multipartFile("document")))
    let filename = p.canary(.token, at: .requestBody(.multipartFilename("document")))
    let uploadID = p.canary(.token, at: .responseBody(.json("upload_id")))

    // Replace with your server's response.
    p.server.on(
      .post, p.route, respond: .json(#"{"upload_id":"\#(uploadID)","status":"stored"}"#, status: 201))

    // Replace with your client's upload call (your multipart encoder, your file).
    let boundary = "Boundary-\(UUID().uuidString)"
    var body = Data()
    body.append(
      Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\n\(caption)\r\n".utf8))
    body.append(
      Data(
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"document\"; filename=\"\(filename)\"\r\nContent-Type: text/plain\r\n\r\nscan of \(content)\r\n"
          .utf8))
    body.append(Data("--\(boundary)--\r\n".utf8))
    return [
      p.request(
        "POST", p.url(p.route), headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")],
        body: body)
    ]
  }

  func testUploadLogsNoFieldFileOrFilename() async throws {
    let trap = self.trap  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), logging to `log`; the kind points its requests at the trap's server.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.finishTasksAndInvalidate() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    // Plants the kind's canaries, sends its requests through your transport, records every request
    // and response, and proves each canary's delivery.
    try await trap.runMatrix(through: transport, kinds: [Self.upload])
    await expectNoLeaks()  // ends the scope: one failure per leak, undelivered canary or silent sink
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
