import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryCLI

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("canary serve")
struct ServeCommandTests {
  static let manifest = """
    {"version":1,"canaries":[
     {"value":"cnryReqHeader0001","location":"request.header[X-Session]"},
     {"value":"cnryReqBody000002","location":"request.body.json[password]"},
     {"value":"cnryNeverSent0003","location":"request.url.query[unused]"},
     {"value":"cnryRespHeader004","location":"response.header[X-Resp]"},
     {"value":"cnryRespCookie005","location":"response.cookie[sid]"},
     {"value":"cnryRespJson00006","location":"response.body.json[user.tokens[1\\\\]]"},
     {"value":"cnryRespText00007","location":"response.body.text"},
     {"value":"cnryRedirQuery008","location":"redirect[1].location.query[sig]"},
     {"value":"cnryRedirPath0009","location":"redirect[2].location.path[1]"},
     {"value":"cnryFinalQuery010","location":"final.url.query[f]"},
     {"value":"cnryXmlNotServed11","location":"response.body.xml[a]"}
    ]}
    """

  @Test func servesResponseCanariesAndRecordsRequestCanaries() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let manifestURL = directory.appendingPathComponent("manifest.json")
    let recordURL = directory.appendingPathComponent("record.json")
    try Data(Self.manifest.utf8).write(to: manifestURL)
    let captured = CapturedIO()
    let stopRequested = Locked(false)
    let command = Task {
      await ServeCommand.run(
        ["--manifest", manifestURL.path, "--record", recordURL.path], io: captured.io,
        until: {
          while !stopRequested.current { try? await Task.sleep(for: .milliseconds(5)) }
        })
    }
    var base: String?
    for _ in 0..<400 where base == nil {
      try await Task.sleep(for: .milliseconds(5))
      base = captured.standardOutput.split(separator: "\n").first.map(String.init)
    }
    let baseURL = try #require(base.flatMap(URL.init(string:)))
    #expect(baseURL.host == "127.0.0.1")
    let session = makeCLISession()

    var request = URLRequest(url: baseURL.appendingPathComponent("api/signin"))
    request.httpMethod = "POST"
    request.setValue("cnryReqHeader0001", forHTTPHeaderField: "X-Session")
    request.httpBody = Data(#"{"password":"cnryReqBody000002"}"#.utf8)
    let (data, response) = try await session.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.value(forHTTPHeaderField: "X-Resp") == "cnryRespHeader004")
    #expect(http.value(forHTTPHeaderField: "Set-Cookie")?.contains("sid=cnryRespCookie005") == true)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(((json["user"] as? [String: Any])?["tokens"] as? [Any])?.last as? String == "cnryRespJson00006")
    #expect(json["text"] as? String == "cnryRespText00007")

    let (_, redirected) = try await session.data(from: baseURL.appendingPathComponent("redirect"))
    let finalURL = try #require(redirected.url?.absoluteString)
    #expect(finalURL.contains("cnryRedirPath0009"))
    #expect(finalURL.contains("f=cnryFinalQuery010"))

    stopRequested.withLock { $0 = true }
    #expect(await command.value == ExitStatus.success)
    let lines = try serveRecordLines(Data(contentsOf: recordURL))
    #expect(lines.first?["type"] as? String == "start")
    let record = try #require(lines.last)
    #expect(record["type"] as? String == "summary")
    #expect(record["requests"] as? Int == 4)
    let sightings = try #require(record["requestCanaries"] as? [[String: Any]])
    let seen = Dictionary(
      uniqueKeysWithValues: sightings.map { ($0["value"] as! String, $0["seen"] as! Bool) })
    #expect(seen == ["cnryReqHeader0001": true, "cnryReqBody000002": true, "cnryNeverSent0003": false])
    let served = try #require(record["responseCanaries"] as? [[String: Any]])
    let sent = Dictionary(uniqueKeysWithValues: served.map { ($0["value"] as! String, $0["seen"] as! Bool) })
    #expect(sent.count == 8)
    #expect(sent.filter { !$0.value }.map(\.key) == ["cnryXmlNotServed11"], "\(sent)")
    let targets = lines.filter { $0["type"] as? String == "request" }.map { $0["target"] as? String ?? "" }
    #expect(targets.count == 4)
    #expect(targets[2].contains("sig=cnryRedirQuery008"))
    #expect(
      captured.standardError
        == "canary serve: cannot plant response.body.xml[a]; it is listed but not served\n"
        + "canary serve: stopped after 4 requests; request-side canaries seen: 2 of 3\n")
  }

  @Test func badUsageExitsWithStatus2AndOneLineReason() async {
    for arguments in [
      [], ["--port", "99999", "--manifest", "x"], ["--manifest", "/nonexistent/m.json"], ["--bogus"],
    ] {
      let captured = CapturedIO()
      let status = await ServeCommand.run(arguments, io: captured.io, until: {})
      #expect(status == ExitStatus.usage)
      #expect(captured.standardError.hasPrefix("canary serve: "))
      #expect(captured.standardError.filter { $0 == "\n" }.count == 1)
    }
  }

  @Test func helpIsPrinted() async {
    let captured = CapturedIO()
    #expect(await CommandLineTool.run(["serve", "--help"], io: captured.io) == ExitStatus.success)
    #expect(captured.standardOutput.contains("--manifest FILE"))
  }

  @Test func jsonPathsBuildNestedObjectsAndArrays() {
    var root = JSONValue.object([:])
    JSONPath.set(&root, path: JSONPath.components("a.b[2].c"), to: .string("v"))
    #expect(root == .object(["a": .object(["b": .array([.null, .null, .object(["c": .string("v")])])])]))
  }
}

/// The JSON objects of a `canary serve` record, one per line.
func serveRecordLines(_ data: Data) throws -> [[String: Any]] {
  try data.split(separator: UInt8(ascii: "\n")).map { line in
    try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
  }
}

func makeCLISession() -> URLSession {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.timeoutIntervalForRequest = 5
  configuration.urlCache = nil
  configuration.httpCookieAcceptPolicy = .never
  return URLSession(configuration: configuration)
}
