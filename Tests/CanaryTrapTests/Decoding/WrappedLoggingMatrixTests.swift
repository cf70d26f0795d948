import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// End to end: a client that logs every request whole, once on one line and once wrapped into
/// fixed-width lines each with its own `[net 3/14] ` prefix. A wrapped message is one message:
/// every canary the one-line log shows is found in the wrapped logs too, in the same encoding
/// (not as a fragment), also where a line holds only the middle of a value.
@Suite("A client logging whole requests, wrapped")
struct WrappedLoggingMatrixTests {
  /// `message` cut into lines of `width` characters, each prefixed with its counter, as logcat
  /// prints a long message: every line it shows has the prefix, those of the message's own line
  /// breaks (a multipart body's) too.
  static func wrapped(_ message: String, width: Int) -> String {
    // By scalars, so that a CRLF (one `Character`) is split too.
    let lines = message.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
      line in
      let characters = Array(String(String.UnicodeScalarView(line)))
      return stride(from: 0, to: max(1, characters.count), by: width).map {
        String(characters[$0..<min($0 + width, characters.count)])
      }
    }
    return lines.enumerated().map { "[net \($0.offset + 1)/\(lines.count)] " + $0.element }
      .joined(separator: "\n")
  }

  /// The request as a debugging client prints it: method, URL, headers, body.
  static func message(_ request: URLRequest, redacted: Bool) -> String {
    guard !redacted else { return "\(request.httpMethod ?? "GET") <url redacted> <headers redacted>" }
    var text = "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")"
    for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
      text += " \(name): \(value)"
    }
    if let body = request.httpBody { text += " body=" + String(decoding: body, as: UTF8.self) }
    return text
  }

  /// The lines of `messages` holding the first or last 8 characters of each finding in `keys`
  /// (`location as encoding`), so a miss shows the cut that hid it.
  static func placesOf(_ keys: [String], in report: LeakReport, messages: [String]) -> [String] {
    let values = Set(
      report.findings.filter { keys.contains("\($0.canary.location) as \($0.encoding)") }.map(\.canary.value))
    return values.sorted().map { value in
      let ends = [String(value.prefix(8)), String(value.suffix(8))]
      let lines = messages.flatMap { $0.split(separator: "\n") }.filter { line in
        ends.contains { line.contains($0) }
      }
      return "\(value.debugDescription): \(lines.map(\.debugDescription).joined(separator: " / "))"
    }
  }

  @Test(
    "every canary the one-line log shows is found wrapped at 40 and 64 columns; the redacted twin is clean")
  func wrappedRequestsAreOneMessage() async throws {
    for redacted in [false, true] {
      let session = TestTransports.session()
      let written = Locked<[Int: [String]]>([:])
      let result = await CanaryTrap.matrix(
        title: "wrapped", configuration: .init(captureStandardStreams: false)
      ) { trap in
        let plain = trap.memoryLog("one-line")
        let narrow = trap.memoryLog("wrapped-40")
        let wide = trap.memoryLog("wrapped-64")
        let base = Transport.urlSession(session)
        return Transport { request in
          let text = Self.message(request, redacted: redacted)
          plain.write(text)
          let lines = [40, 64].map { Self.wrapped(text, width: $0) }
          narrow.write(lines[0])
          wide.write(lines[1])
          written.withLock {
            $0[40, default: []].append(lines[0])
            $0[64, default: []].append(lines[1])
          }
          return try await base.send(request)
        }
      }
      let report = try #require(result.report)
      func found(in source: String) -> Set<String> {
        Set(report.findings.filter { $0.source == source }.map { "\($0.canary.location) as \($0.encoding)" })
      }
      let shown = found(in: "one-line")
      if redacted {
        #expect(report.findings.isEmpty, "\(report.findings.prefix(3).map(\.message))")
      } else {
        #expect(shown.count > 100, "\(shown.count) findings in the one-line log")
        for source in ["wrapped-40", "wrapped-64"] {
          let missing = shown.subtracting(found(in: source)).sorted()
          let extra = found(in: source).subtracting(shown).sorted()
          let width = source == "wrapped-40" ? 40 : 64
          let messages = written.withLock { $0[width] ?? [] }
          #expect(
            missing.isEmpty,
            """
            \(source) misses \(missing.count) of \(shown.count): \(missing); \
            where they were written: \(Self.placesOf(missing, in: report, messages: messages))
            """
          )
          #expect(extra.isEmpty, "\(source) finds what the one-line log does not show: \(extra)")
        }
      }
    }
  }
}
