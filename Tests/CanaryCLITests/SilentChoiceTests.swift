import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Choices that were made silently and are now errors that say what is wrong (issue 37).
@Suite struct SilentChoiceTests {
  func run(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
    let captured = CapturedIO()
    let status = await CommandLineTool.run(arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  func directory() throws -> (URL, () -> Void) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "silent-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return (directory, { try? FileManager.default.removeItem(at: directory) })
  }

  /// A sparse file of `size` bytes (no disk used), starting with `{`.
  func sparseFile(_ url: URL, size: Int) throws {
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(fd >= 0)
    defer { close(fd) }
    _ = write(fd, "{", 1)
    try #require(ftruncate(fd, off_t(size)) == 0)
  }

  // MARK: - Baselines

  @Test func aBaselineOverTheLimitIsCalledABaseline() async throws {
    let (directory, remove) = try directory()
    defer { remove() }
    let baseline = directory.appendingPathComponent("baseline.json")
    try sparseFile(baseline, size: (16 << 20) + 1)
    do {
      _ = try LeakBaseline(contentsOf: baseline)
      Issue.record("a 16 MiB baseline was read")
    } catch {
      #expect("\(error)".contains("a baseline is a small JSON file"), "\(error)")
      #expect(!"\(error)".contains("manifest"), "\(error)")
    }
  }

  static func baseline(entries: [String]) -> String {
    #"{"version":1,"knownLeaks":["# + entries.joined(separator: ",") + "]}"
  }

  static let entry = #"{"location":"request.header[X-Key]","source":"logs/app.log","reason":"ticket 42"}"#

  @Test func duplicateBaselineEntriesAreAnErrorNamingThem() async throws {
    let (directory, remove) = try directory()
    defer { remove() }
    let path = directory.appendingPathComponent("baseline.json")
    try Data(Self.baseline(entries: Array(repeating: Self.entry, count: 10_000)).utf8).write(to: path)
    let reports = directory.appendingPathComponent("reports")
    try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
    let result = await run(["report", "stale", reports.path, "--baseline", path.path])
    #expect(result.status == ExitStatus.usage)
    #expect(
      result.error.contains(
        "knownLeaks[1] repeats knownLeaks[0] (request.header[X-Key] in logs/app.log): 9999 entries repeat"),
      "\(result.error)")
    #expect(!result.output.contains("stale baseline entry"))
  }

  /// The twin: entries that differ in location, source or encoding are all kept.
  @Test func baselineEntriesThatDifferAreKept() throws {
    let other = #"{"location":"request.header[X-Key]","source":"logs/other.log","reason":"r"}"#
    let encoded =
      #"{"location":"request.header[X-Key]","source":"logs/app.log","encoding":"base64","reason":"r"}"#
    let baseline = try LeakBaseline(
      jsonData: Data(Self.baseline(entries: [Self.entry, other, encoded]).utf8))
    #expect(baseline.knownLeaks.count == 3)
  }

  // MARK: - canary kinds: the size is checked before the document is read

  @Test func aDocumentOverTheImportLimitIsRefusedBeforeItIsRead() async throws {
    let (directory, remove) = try directory()
    defer { remove() }
    let document = directory.appendingPathComponent("big.json")
    try sparseFile(document, size: 200 << 20)
    let result = await run(["kinds", "--openapi", document.path])
    #expect(result.status == ExitStatus.usage)
    #expect(
      result.error.contains(
        "it holds more than 32 MiB (209715200 bytes); the limit for an OpenAPI document is 32 MiB"),
      "\(result.error)")
  }

  /// A FIFO has no size to check: it is read no further than the limit (the reader closes it and
  /// the writer's next write fails), so memory stays bounded whatever is written.
  @Test func aDocumentFromAFIFOIsReadNoFurtherThanTheLimit() async throws {
    let (directory, remove) = try directory()
    defer { remove() }
    let fifo = directory.appendingPathComponent("doc.fifo")
    try #require(mkfifo(fifo.path, 0o600) == 0)
    signal(SIGPIPE, SIG_IGN)
    let written = Locked(0)
    let finished = DispatchSemaphore(value: 0)
    Thread {
      defer { finished.signal() }
      let fd = open(fifo.path, O_WRONLY)
      guard fd >= 0 else { return }
      defer { close(fd) }
      let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
      // At most 200 MiB, the size issue 37 read whole before refusing it.
      for _ in 0..<200 {
        let count = chunk.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        written.withLock { $0 += count }
      }
    }.start()
    let result = await run(["kinds", "--har", fifo.path])
    #expect(finished.wait(timeout: .now() + 30) == .success)
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("the limit for a HAR file is 32 MiB"), "\(result.error)")
    // What the reader took (the limit and one chunk) and what the pipe held when it closed.
    #expect(written.current < 34 << 20, "\(written.current) bytes were written before the refusal")
  }

  /// The twin: a document under the limit is read and imported.
  @Test func aDocumentUnderTheLimitIsImported() async throws {
    let (directory, remove) = try directory()
    defer { remove() }
    let document = directory.appendingPathComponent("small.json")
    try Data(
      #"{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"parameters":[{"name":"k","in":"query","schema":{"type":"string"}}],"responses":{}}}}}"#
        .utf8
    ).write(to: document)
    let result = await run(["kinds", "--openapi", document.path])
    #expect(result.status == ExitStatus.success, "\(result.error)")
    #expect(result.output.contains("request.url.query[k]"))
  }

  // MARK: - Duplicated keys in an imported document

  static func openAPI(parameters: String) -> String {
    #"{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/login":{"post":{"operationId":"login","#
      + parameters + #","responses":{"200":{"description":"ok"}}}}}}"#
  }

  static let tokenParameter = #"[{"name":"token","in":"query","schema":{"type":"string"}}]"#

  @Test func aDuplicatedKeyInAnOpenAPIDocumentIsAnErrorNamingItsPointer() async throws {
    let (directory, remove) = try directory()
    defer { remove() }
    // JSONDecoder kept the first "parameters": the POST's token parameter vanished, exit 0.
    let document = Self.openAPI(parameters: #""parameters":[],"parameters":"# + Self.tokenParameter)
    let path = directory.appendingPathComponent("api.json")
    try Data(document.utf8).write(to: path)
    let result = await run(["kinds", "--strict", "--openapi", path.path])
    #expect(result.status == ExitStatus.usage)
    #expect(
      result.error.contains(
        #"/paths/~1login/post/parameters: the key "parameters" occurs twice in one object"#),
      "\(result.error)")
    #expect(throws: KindImportError.self) { try RequestKind.kinds(fromOpenAPI: Data(document.utf8)) }
    do {
      _ = try RequestKind.kinds(fromOpenAPI: Data(document.utf8))
    } catch let error as KindImportError {
      guard case .malformed(let pointer, _) = error else {
        Issue.record("not malformed: \(error)")
        return
      }
      #expect(pointer == "/paths/~1login/post/parameters")
    }
    // The same key spelled with an escape is the same key.
    let escaped = #"{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},"\u0070aths":{}}"#
    do {
      _ = try RequestKind.kinds(fromOpenAPI: Data(escaped.utf8))
      Issue.record("an escaped duplicate was read")
    } catch {
      #expect("\(error)".hasPrefix(#"/paths: the key "paths" occurs twice"#), "\(error)")
    }
  }

  @Test func aDuplicatedKeyInAHARFileIsAnErrorNamingItsPointer() async throws {
    let (directory, remove) = try directory()
    defer { remove() }
    let har =
      #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{"request":{"method":"GET","#
      + #""url":"https://example.com/a?k=v","httpVersion":"HTTP/1.1","headers":[{"name":"X-Key","value":"a","#
      + #""value":"b"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"#
      + #""statusText":"OK","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":0,"#
      + #""mimeType":"text/plain"},"redirectURL":"","headersSize":-1,"bodySize":0}}]}}"#
    let path = directory.appendingPathComponent("run.har")
    try Data(har.utf8).write(to: path)
    let result = await run(["kinds", "--har", path.path])
    #expect(result.status == ExitStatus.usage)
    #expect(
      result.error.contains(#"/log/entries/0/request/headers/0/value: the key "value" occurs twice"#),
      "\(result.error)")
    // The twin: the same archive with the header's value once is imported.
    let single = har.replacingOccurrences(of: #""value":"a","value":"b""#, with: #""value":"a""#)
    try Data(single.utf8).write(to: path)
    let fixed = await run(["kinds", "--har", path.path])
    #expect(fixed.status == ExitStatus.success, "\(fixed.error)")
  }

  /// The twin: the same key in different objects is no duplicate, and the token is planted.
  @Test func theSameKeyInDifferentObjectsIsRead() async throws {
    let parameters =
      #""parameters":[{"name":"token","in":"query","schema":{"type":"string"}},"#
      + #"{"name":"other","in":"query","schema":{"type":"string"}}]"#
    let imported = try RequestKind.kinds(fromOpenAPI: Data(Self.openAPI(parameters: parameters).utf8))
    let locations = imported.plans.flatMap { $0.locations.map { "\($0.location)" } }
    #expect(locations.contains("request.url.query[token]"), "\(locations)")
    #expect(locations.contains("request.url.query[other]"), "\(locations)")
  }

  // MARK: - manifest --check: ordinary text and values inside values

  func check(_ values: [String]) async throws -> (status: Int32, output: String, error: String) {
    let (directory, remove) = try directory()
    defer { remove() }
    let path = directory.appendingPathComponent("m.json")
    let canaries = values.enumerated().map { index, value in
      #"{"value":"\#(value)","location":"app.secret[\#(index + 1)]"}"#
    }
    try Data((#"{"version":1,"canaries":["# + canaries.joined(separator: ",") + "]}").utf8).write(to: path)
    return await run(["manifest", "--check", path.path])
  }

  @Test func aValueThatIsOrdinaryHTTPTextIsRefused() async throws {
    let header = try await check(["cnryFreshValue01", "Authorization"])
    #expect(header.status == ExitStatus.usage)
    #expect(
      header.error.contains(#"canaries[1].value "Authorization" is ordinary HTTP text"#), "\(header.error)")
    let media = try await check(["application/json"])
    #expect(media.status == ExitStatus.usage)
    #expect(
      media.error.contains(#"canaries[0].value "application/json" is ordinary HTTP text"#), "\(media.error)")
    let part = try await check(["-www-form-urlenc"])
    #expect(part.status == ExitStatus.usage)
    #expect(part.error.contains(#"part of "application/x-www-form-urlencoded""#), "\(part.error)")
  }

  @Test func aValueInsideAnotherIsRefusedNamingBoth() async throws {
    let inside = try await check(["cnryOuterXYZ-cnryInner12345-tail", "cnryInner12345"])
    #expect(inside.status == ExitStatus.usage)
    #expect(
      inside.error.contains(
        #"canaries[0].value "cnryOuterXYZ-cnryInner12345-tail" contains canaries[1].value "cnryInner12345""#),
      "\(inside.error)")
    let same = try await check(["cnrySameValue01", "cnryOtherValue2", "cnrySameValue01"])
    #expect(same.status == ExitStatus.usage)
    #expect(same.error.contains("canaries[2].value is the same as canaries[0].value"), "\(same.error)")
  }

  /// The twin: fresh values that share a prefix but neither holds the other pass.
  @Test func distinctFreshValuesPassTheCheck() async throws {
    let result = try await check(["cnryShared0000A1", "cnryShared0000B2", "x-cnryShared0000C3"])
    #expect(result.status == ExitStatus.success, "\(result.error)")
    #expect(result.output.contains("valid, 3 canaries"))
  }

  /// A manifest of 10,000 minted values of every shape passes (JWTs share a prefix; each value is
  /// indexed by its rarest window, so that costs no quadratic work).
  @Test func aLargeMintedManifestPassesTheCheck() async throws {
    let (directory, remove) = try directory()
    defer { remove() }
    let path = directory.appendingPathComponent("m.json")
    let minted = await run(["manifest", "--count", "10000", "--shape", "mixed", "-o", path.path])
    #expect(minted.status == ExitStatus.success, "\(minted.error)")
    let result = await run(["manifest", "--check", path.path])
    #expect(result.status == ExitStatus.success, "\(result.error)")
  }
}
