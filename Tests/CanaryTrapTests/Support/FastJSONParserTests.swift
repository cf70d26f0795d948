import Foundation
import Testing

@testable import CanaryTrap

/// The fast manifest parser reads exactly what `JSONDecoder` reads, and leaves to it everything
/// it does not read the same way.
@Suite struct FastJSONParserTests {
  func fast(_ text: String) -> JSONValue? {
    Array(text.utf8).withUnsafeBufferPointer { FastJSONParser.parse($0) }
  }

  func decoded(_ text: String) -> JSONValue? {
    try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  static let documents = [
    #"{"version": 1, "canaries": [{"value": "cnry7h2kabcdefgh", "location": "request.header[X]"}]}"#,
    #"{"a": [1, -0, 0.5, -12.25e3, 1E-7, 123456789012345678901234567890, true, false, null, {}, []]}"#,
    #"{"s": "quote \" backslash \\ slash \/ \b\f\n\r\t done", "u": "\u00e9\u6f22\ud83d\ude00\u0000"}"#,
    "{\"raw\": \"é 漢字 😀\", \"nested\": {\"deeper\": {\"deepest\": [[[\"x\"]]]}}}",
    " \t\r\n{ \"spaced\" : [ 1 , 2 ] } \n",
    #"[1, "top level array"]"#,
    #""a lone string""#,
  ]

  @Test func readsWhatJSONDecoderReads() {
    for text in Self.documents {
      let value = fast(text)
      #expect(value != nil, "\(text)")
      #expect(value == decoded(text), "\(text)")
    }
  }

  @Test(arguments: [
    #"{"a": 1, "a": 2}"#,  // a duplicate key
    #"{"a": "\ud800"}"#,  // a lone surrogate
    #"{"a": "\udc00\ud800"}"#,
    #"{"a": 1e400}"#,  // out of Double's range
    "\u{FEFF}{\"a\": 1}",  // a byte order mark
    "{\"a\": \"tab\u{09}inside\"}",  // a raw control character
    #"{"a": 01}"#, #"{"a": 1.}"#, #"{"a": .5}"#, #"{"a": +1}"#, #"{"a": 1e}"#,
    #"{"a": tru}"#, #"{"a": [1, 2,]}"#, #"{"a": 1,}"#, #"{"a" 1}"#, #"{'a': 1}"#, #"{"a": "\x"}"#,
    #"{"a": "\u12"}"#, #"{"a": 1} x"#, #"{"a": [1, 2}"#, "", "   ",
    String(repeating: "[", count: 100) + String(repeating: "]", count: 100),  // deeper than 64
  ])
  func leavesAnythingUnusualToJSONDecoder(_ text: String) {
    #expect(fast(text) == nil, "\(text)")
  }

  @Test func agreesWithJSONDecoderOnRandomDocuments() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      let text = Self.randomDocument(depth: 0, &random)
      let value = fast(text)
      #expect(value != nil && value == decoded(text), "\(text)")
    }
  }

  static func randomDocument(depth: Int, _ random: inout SystemRandomNumberGenerator) -> String {
    let pieces = ["a", "é", "漢", "😀", "\\\"", "\\\\", "\\/", "\\n", "\\u00e9", "\\ud83d\\ude00", " ", "\\t"]
    func string() -> String {
      "\""
        + (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }
        .joined()
        + "\""
    }
    switch depth > 3 ? Int.random(in: 0...4, using: &random) : Int.random(in: 0...6, using: &random) {
    case 0: return string()
    case 1:
      return ["0", "-1", "3.25", "1e10", "-2.5E-3", "98765432109876543210"].randomElement(using: &random)!
    case 2: return ["true", "false"].randomElement(using: &random)!
    case 3: return "null"
    case 4: return string()
    case 5:
      let elements = (0..<Int.random(in: 0...4, using: &random)).map { _ in
        randomDocument(depth: depth + 1, &random)
      }
      return "[" + elements.joined(separator: ", ") + "]"
    default:
      var keys: Set<String> = []
      let fields = (0..<Int.random(in: 0...4, using: &random)).compactMap { index -> String? in
        let key = "k\(index)\(pieces.randomElement(using: &random)!)"
        guard keys.insert(key).inserted else { return nil }
        return "\"\(key)\": " + randomDocument(depth: depth + 1, &random)
      }
      return "{" + fields.joined(separator: ",") + "}"
    }
  }

  @Test func aManifestReadThroughEitherPathIsTheSame() throws {
    // 2,000 password canaries (quotes, backslashes, slashes and markup in every value).
    let generator = CanaryGenerator()
    let entries = (0..<2_000).map { index in
      #"{"value": "\#(generator.makeValue(.password).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))", "location": "app[\#(index)]", "shape": "password"}"#
    }
    let text = #"{"version": 1, "canaries": [\#(entries.joined(separator: ","))]}"#
    let manifest = try CanaryManifest(jsonData: Data(text.utf8))
    #expect(manifest.canaries.count == 2_000)
    #expect(fast(text) == decoded(text))
  }
}
