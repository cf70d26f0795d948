import Foundation
import Testing

@testable import CanaryTrapScanner

/// The encoding a finding names depends on the code path, never on the draw of the canary: for
/// many freshly minted canaries of each shape, each path gives one name.
@Suite struct StableEncodingNameTests {
  typealias Path = (name: String, encode: @Sendable (String) -> [UInt8])

  static let paths: [Path] = [
    ("raw", { Array($0.utf8) }),
    ("JSONSerialization", { Array(ComposedEncodingTests.jsonEscaped($0).utf8) }),
    (
      "JSONEncoder",
      {
        let data = try! JSONEncoder().encode(["v": $0])
        return Array(String(decoding: data, as: UTF8.self).dropFirst(6).dropLast(2).utf8)
      }
    ),
    ("Go json (HTML-safe)", { Array(goJSON($0).utf8) }),
    ("XML text", { Array(ComposedEncodingTests.xmlEscaped($0).utf8) }),
    ("form", { Array(ComposedEncodingTests.formEncoded($0).utf8) }),
    (
      "URLComponents query",
      {
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "v", value: $0)]
        return Array(components.percentEncodedQuery!.dropFirst(2).utf8)
      }
    ),
    (
      "unreserved percent",
      { Array($0.addingPercentEncoding(withAllowedCharacters: ComposedEncodingTests.unreserved)!.utf8) }
    ),
    ("base64", { Array(Data($0.utf8).base64EncodedString().utf8) }),
    ("Basic", { Array(Data("user:\($0)".utf8).base64EncodedString().utf8) }),
    (
      "JSONSerialization in base64",
      { Array(Data(ComposedEncodingTests.jsonEscaped($0).utf8).base64EncodedString().utf8) }
    ),
    (
      "form in base64", { Array(Data(ComposedEncodingTests.formEncoded($0).utf8).base64EncodedString().utf8) }
    ),
    ("XML in base64", { Array(Data(ComposedEncodingTests.xmlEscaped($0).utf8).base64EncodedString().utf8) }),
    (
      "base64 percent-encoded",
      {
        Array(
          Data($0.utf8).base64EncodedString().addingPercentEncoding(
            withAllowedCharacters: ComposedEncodingTests.unreserved)!.utf8)
      }
    ),
  ]

  /// JSON string content as Go's encoding/json writes it: `<>&` as `\u003c` etc., `/` kept.
  static func goJSON(_ value: String) -> String {
    var output = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "<": output += "\\u003c"
      case ">": output += "\\u003e"
      case "&": output += "\\u0026"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  @Test(arguments: CanaryShape.allCases)
  func eachPathNamesOneEncodingForEveryMintedCanary(shape: CanaryShape) {
    let generator = CanaryGenerator()
    var names: [String: Set<String>] = [:]
    for index in 0..<60 {
      let canary = Canary(value: generator.makeValue(shape), location: .custom("c[\(index)]"), shape: shape)
      let scanner = LeakScanner(canaries: [canary])
      for path in Self.paths {
        let text = Array("log line: ".utf8) + path.encode(canary.value) + Array(" end\n".utf8)
        let found = scanner.scan(Data(text), source: "log")
        names[path.name, default: []].insert(found.map(\.encoding).joined(separator: " + "))
      }
    }
    for path in Self.paths {
      let seen = names[path.name] ?? []
      #expect(seen.count == 1, "\(shape) via \(path.name): \(seen.sorted())")
      #expect(!seen.contains(""), "\(shape) via \(path.name) not found")
    }
  }

  @Test func passwordsAreNamedByTheEscapeThatChangedThem() {
    let canary = Canary(
      value: CanaryGenerator().makeValue(.password), location: .custom("p"), shape: .password)
    let scanner = LeakScanner(canaries: [canary])
    func name(_ path: String) -> String {
      let encode = Self.paths.first { $0.name == path }!.encode
      return scanner.scan(Data(encode(canary.value)), source: "log").map(\.encoding).joined(separator: " + ")
    }
    #expect(name("JSONSerialization") == "json-escaped")
    #expect(name("Go json (HTML-safe)") == "json-escaped")
    #expect(name("XML text") == "html-entity")
    #expect(name("form") == "form")
    #expect(name("unreserved percent") == "percent")
    #expect(name("JSONSerialization in base64") == "json-escaped → base64")
    #expect(name("form in base64") == "form → base64")
    #expect(name("base64 percent-encoded") == "base64")  // a minted password's base64 has no + or /
  }
}
