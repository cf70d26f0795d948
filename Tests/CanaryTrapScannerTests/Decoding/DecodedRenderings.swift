import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Renders bytes the ways logs show them, with the real tools: Foundation's own `description`
/// on this platform, Swift's `print(Array(data))`, and Python's gzip, zlib, bz2, zipfile and base64.
enum DecodedRenderings {
  /// `"\(data as NSData)"`, as this platform's Foundation writes it.
  static func nsData(_ data: Data) -> String { "\(data as NSData)" }

  /// Apple's Foundation's description of `NSData` (macOS 10.15 and later): every byte when there
  /// are at most 24, else the first 16 and the last 8 around ` ... `, in groups of four bytes.
  /// Not this platform's tool: written out as Apple prints it, for the test of its shape.
  static func appleNSData(_ data: Data) -> String {
    func groups(_ bytes: some Collection<UInt8>) -> String {
      let hex = bytes.map { String(format: "%02x", $0) }
      return stride(from: 0, to: hex.count, by: 4).map { hex[$0..<min($0 + 4, hex.count)].joined() }
        .joined(separator: " ")
    }
    guard data.count > 24 else { return "{length = \(data.count), bytes = 0x\(groups(data))}" }
    return "{length = \(data.count), bytes = 0x\(groups(data.prefix(16))) ... \(groups(data.suffix(8))) }"
  }

  /// SwiftNIO's `ByteBuffer.description` (NIOCore 2.x, `"[\(hexDump(format: .compact(maxBytes:
  /// 64)))](\(readableBytes) bytes)"`): every byte in hex when there are at most 64, else the
  /// first 32 and the last 32 around `...`. Not this package's dependency: written out as NIO
  /// prints it, from its source and its tests (`testHexDumpCompactWithMaxBytes`).
  static func nioByteBuffer(_ data: Data) -> String {
    func hex(_ bytes: some Collection<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    guard data.count > 64 else { return "[\(hex(data))](\(data.count) bytes)" }
    return "[\(hex(data.prefix(32)))...\(hex(data.suffix(32)))](\(data.count) bytes)"
  }

  /// A GraphQL GET of `data` as its `variables`, the query string made by `URLComponents`.
  static func graphQLQuery(_ data: Data) -> String {
    var components = URLComponents(string: "https://api.example.com/graphql")!
    components.queryItems = [
      URLQueryItem(name: "query", value: "query Profile { profile { id } }"),
      URLQueryItem(name: "variables", value: String(decoding: data, as: UTF8.self)),
    ]
    return components.string!
  }

  /// `print(Array(data))`.
  static func byteList(_ data: Data) -> String { "\(Array(data))" }

  /// `0x7B, 0x22, …`.
  static func hexByteList(_ data: Data) -> String {
    data.map { String(format: "0x%02X", $0) }.joined(separator: ", ")
  }

  /// What Python prints for `data` passed through `expression` (with `d` the bytes), or `nil`
  /// after recording that the test did not run without python3.
  static func python(_ expression: String, _ data: Data, sourceLocation: SourceLocation = #_sourceLocation)
    throws -> String?
  {
    guard ExternalTools.require("python3", for: "this decoding test", sourceLocation: sourceLocation) != nil
    else { return nil }
    let script =
      "import sys, io, json, gzip, zlib, bz2, zipfile, base64, urllib.parse\nd = sys.stdin.buffer.read()\nsys.stdout.write((\(expression)).decode())"
    guard let output = try ExternalTool.run("python3", ["-c", script], input: data) else {
      Issue.record("python3 failed on \(expression)", sourceLocation: sourceLocation)
      return nil
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Python expressions making base64 text of compressed bytes, by the chain they are named
  /// (base64url too is named `base64`: the text of most payloads is valid in both alphabets).
  static let compressed: [(expression: String, chain: String)] = [
    ("base64.b64encode(gzip.compress(d))", "gzip → base64"),
    ("base64.urlsafe_b64encode(gzip.compress(d))", "gzip → base64"),
    ("base64.b64encode(zlib.compress(d))", "zlib → base64"),
    ("base64.urlsafe_b64encode(zlib.compress(d)).rstrip(b'=')", "zlib → base64"),
    (
      "base64.b64encode((lambda c: c.compress(d) + c.flush())(zlib.compressobj(9, zlib.DEFLATED, -15)))",
      "deflate → base64"
    ),
    (
      "base64.urlsafe_b64encode((lambda c: c.compress(d) + c.flush())(zlib.compressobj(6, zlib.DEFLATED, -15)))",
      "deflate → base64"
    ),
    (
      "base64.b64encode((lambda b: (lambda z: (z.writestr('body.json', d), z.close(), b.getvalue())[2])(zipfile.ZipFile(b, 'w', zipfile.ZIP_DEFLATED)))(io.BytesIO()))",
      "zip → base64"
    ),
    ("base64.b64encode(bz2.compress(d))", "bzip2 → base64"),
    ("base64.urlsafe_b64encode(bz2.compress(d, 1))", "bzip2 → base64"),
  ]
}
