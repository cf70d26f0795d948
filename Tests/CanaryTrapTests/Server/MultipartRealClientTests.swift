import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one multipart parser against bodies real clients write: curl's `-F` uploads through the
/// server, and Python's `email` package (its own parser is the oracle), folded headers included.
/// The delivery proof reads the same parts as `request.multipart`.
@Suite("Multipart bodies from real clients")
struct MultipartRealClientTests {
  static let payload: [UInt8] = [0x89, 0x50, 0x0D, 0x0A, 0x2D, 0x2D, 0x00, 0xFF, 0x0D, 0x0A]

  #if os(macOS) || os(Linux)
    @Test func curlFormUploadIsReadAndProvenAlike() async throws {
      let fixtures = try ContainerFixtures()
      defer { fixtures.remove() }
      try fixtures.write("payload.bin", Data(Self.payload + Array("cnry-file-content".utf8)))
      let server = try makeServer()
      defer { server.stop() }
      guard
        try fixtures.run(
          "curl",
          [
            "-sS", "-o", "/dev/null", "-F", "note=cnry-note-value",
            "-F", "avatar=@payload.bin;filename=cnry-file.png;type=image/png",
            "\(server.baseURL.absoluteString)/upload",
          ])
      else { return }
      let request = try #require(server.requests.first)
      let multipart = try #require(request.multipart)
      #expect(multipart.isComplete)
      #expect(multipart.parts.count == 2)
      #expect(multipart.field("note") == "cnry-note-value")
      let file = try #require(multipart.part(named: "avatar"))
      #expect(file.filename == "cnry-file.png")
      #expect(file.contentType == "image/png")
      #expect(Array(file.body) == Self.payload + Array("cnry-file-content".utf8))

      // The proof agrees with what `request.multipart` shows, and refuses what it does not.
      let inspection = RequestInspection(request: request)
      #expect(LocationProof.bodyPart(.multipartField("note"), ofRequest: inspection, is: "cnry-note-value"))
      #expect(
        LocationProof.bodyPart(.multipartFile("avatar"), ofRequest: inspection, is: "cnry-file-content"))
      #expect(
        LocationProof.bodyPart(.multipartFilename("avatar"), ofRequest: inspection, is: "cnry-file.png"))
      #expect(!LocationProof.bodyPart(.multipartField("note"), ofRequest: inspection, is: "cnry-other"))
      #expect(
        !LocationProof.bodyPart(.multipartField("avatar"), ofRequest: inspection, is: "cnry-file-content"))
      #expect(!LocationProof.bodyPart(.multipartFilename("note"), ofRequest: inspection, is: "cnry-file.png"))
    }

    /// Python's email generator with the HTTP policy (CRLF, no folding) and compat32 (LF, a folded
    /// `Content-Disposition`, an RFC 2231 `filename*`); Python's own parser says what the parts are.
    @Test(arguments: ["http", "compat32"])
    func pythonEmailBodiesMatchPythonsParser(_ policy: String) throws {
      let fixtures = try ContainerFixtures()
      defer { fixtures.remove() }
      guard try fixtures.python(Self.pythonScript(policy: policy)) else { return }
      let body = try Data(contentsOf: fixtures.url("body.bin"))
      let boundary = try String(contentsOf: fixtures.url("boundary.txt"), encoding: .utf8)
      let expected = try JSONDecoder().decode(
        [ExpectedPart].self, from: Data(contentsOf: fixtures.url("parts.json")))
      let multipart = MultipartBody(boundary: boundary, body: body)
      #expect(multipart.isComplete)
      #expect(multipart.parts.count == expected.count)
      for (part, oracle) in zip(multipart.parts, expected) {
        #expect(part.name == oracle.name)
        #expect(part.filename == oracle.filename)
        #expect(part.body.map { String(format: "%02x", $0) }.joined() == oracle.hex)
      }
      #expect(
        multipart.part(named: "avatar")?.filename == "cnry-" + String(repeating: "long-", count: 14) + "€.png"
      )
    }

    struct ExpectedPart: Decodable {
      var name: String?
      var filename: String?
      var hex: String
    }

    static func pythonScript(policy: String) -> String {
      let bytes = payload.map(String.init).joined(separator: ", ")
      return """
        import email, email.policy, json
        from email.mime.multipart import MIMEMultipart
        from email.mime.nonmultipart import MIMENonMultipart
        policy = email.policy.HTTP if '\(policy)' == 'http' else email.policy.compat32
        msg = MIMEMultipart('form-data', policy=policy)
        msg.preamble = 'a preamble --not a delimiter'
        msg.epilogue = 'an epilogue'
        note = MIMENonMultipart('text', 'plain', charset='utf-8', policy=policy)
        note.add_header('Content-Disposition', 'form-data', name='note')
        note.set_payload('cnry-note-value')
        msg.attach(note)
        data = MIMENonMultipart('application', 'octet-stream', policy=policy)
        data.add_header('Content-Disposition', 'form-data', name='avatar',
                        filename=('utf-8', '', 'cnry-' + 'long-' * 14 + '\\u20ac.png'))
        data.set_payload(bytes([\(bytes)]))
        msg.attach(data)
        raw = msg.as_bytes(policy=policy)
        open('body.bin', 'wb').write(raw)
        open('boundary.txt', 'w').write(msg.get_boundary())
        parsed = email.message_from_bytes(raw, policy=email.policy.compat32)
        parts = [{'name': p.get_param('name', header='content-disposition'), 'filename': p.get_filename(),
                  'hex': p.get_payload(decode=True).hex()} for p in parsed.get_payload()]
        json.dump(parts, open('parts.json', 'w'))
        """
    }
  #endif

  /// A URLSession upload task streaming the body from a file reaches the parser whole.
  @Test func urlSessionFileUploadIsParsed() async throws {
    let fixtures = try ContainerFixtures()
    defer { fixtures.remove() }
    let boundary = "cnry-\(UUID().uuidString)"
    var body = Data(
      "--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nfield one\r\n".utf8)
    body.append(
      Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"d.bin\"\r\n\r\n".utf8))
    body.append(Data(Self.payload))
    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
    let file = try fixtures.write("upload.bin", body)
    let server = try makeServer()
    defer { server.stop() }
    var request = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
    request.httpMethod = "POST"
    request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
    _ = try await makeSession().upload(for: request, fromFile: file)
    let multipart = try #require(server.requests.first?.multipart)
    #expect(multipart.field("note") == "field one")
    #expect(Array(multipart.part(named: "doc")?.body ?? Data()) == Self.payload)
  }
}
