import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap
@testable import CanaryTrapScanner

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A canary put into a URL or a form by the real encoders apps use is named by one encoding in
/// every run: which random symbols a password drew never changes the name.
@Suite struct URLBuilderEncodingNameTests {
  /// One way of building a URL or a form, as a logger would print its result.
  struct Builder: Sendable {
    var name: String
    /// The name every minted password must get through this builder.
    var passwordEncoding: String
    var build: Build
  }

  /// Encodes every value at once, one line of output per value.
  typealias Build = @Sendable ([String]) throws -> [String]

  static let base = URL(string: "http://127.0.0.1:8080/trace-x/search")!

  /// Builds one URL per value with `body`, the value in the components `body` sets.
  static func eachURL(_ body: @escaping @Sendable (inout URLComponents, String) -> Void) -> Build {
    { values in
      values.map { value in
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        body(&components, value)
        return components.url!.absoluteString
      }
    }
  }

  /// `urlQueryAllowed` without `&`, `=` and `+`: the set many apps escape query values with.
  static let queryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))
  /// `urlQueryAllowed` without the RFC 3986 delimiters but `/` and `?`, as Alamofire escapes queries.
  static let alamofireQueryAllowed = CharacterSet.urlQueryAllowed.subtracting(
    CharacterSet(charactersIn: ":#[]@!$&'()*+,;="))

  static let builders: [Builder] = [
    Builder(
      name: "URLComponents.queryItems", passwordEncoding: "percent",
      build: eachURL { components, value in
        components.queryItems = [
          URLQueryItem(name: "password", value: value), URLQueryItem(name: "page", value: "1"),
        ]
      }),
    Builder(
      name: "percentEncodedQuery with urlQueryAllowed", passwordEncoding: "percent",
      build: eachURL { components, value in
        components.percentEncodedQuery =
          "password=" + value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)! + "&page=1"
      }),
    Builder(
      name: "percentEncodedQuery with urlQueryAllowed minus &=+", passwordEncoding: "percent",
      build: eachURL { components, value in
        components.percentEncodedQuery =
          "password=" + value.addingPercentEncoding(withAllowedCharacters: queryValueAllowed)! + "&page=1"
      }),
    Builder(
      name: "percentEncodedQuery as Alamofire escapes it", passwordEncoding: "percent",
      build: eachURL { components, value in
        components.percentEncodedQuery =
          "password=" + value.addingPercentEncoding(withAllowedCharacters: alamofireQueryAllowed)! + "&page=1"
      }),
    Builder(
      name: "URLComponents.path", passwordEncoding: "percent",
      build: eachURL { components, value in components.path = "/trace-x/items/" + value }),
    Builder(
      name: "URLComponents.password", passwordEncoding: "percent",
      build: eachURL { components, value in
        components.user = "user"
        components.password = value
      }),
    Builder(
      name: "the matrix's query (KindPlanter.url)", passwordEncoding: "percent",
      build: { values in
        let planter = KindPlanter(trap: CanaryTrap(title: "urls"), kindName: "get-query")
        return values.map { planter.url(planter.path("search"), query: [("password", $0)]).absoluteString }
      }),
    Builder(
      name: "the matrix's path (KindPlanter.path)", passwordEncoding: "percent",
      build: { values in
        let planter = KindPlanter(trap: CanaryTrap(title: "urls"), kindName: "path")
        return values.map { planter.url(planter.path("items", $0)).absoluteString }
      }),
    Builder(
      name: "the matrix's form (RequestKind.formEncoded)", passwordEncoding: "form",
      build: { values in values.map { RequestKind.formEncoded([("password", $0), ("remember", "1")]) } }),
    Builder(name: "Python's urllib.parse.urlencode", passwordEncoding: "form", build: python("urlencode")),
    Builder(
      name: "Python's urllib.parse.quote (safe: /)", passwordEncoding: "percent", build: python("quote")),
  ]

  /// Runs Python's own encoder once over every value (one JSON string per line).
  static func python(_ function: String) -> Build {
    { values in
      let script = """
        import json, sys, urllib.parse
        for line in sys.stdin:
            value = json.loads(line)
            if "\(function)" == "urlencode":
                print(urllib.parse.urlencode({"password": value, "remember": "1"}))
            else:
                print("/items/" + urllib.parse.quote(value, safe="/"))
        """
      let lines = try values.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
      guard ExternalTools.path(of: "python3") != nil else { throw ToolMissing(tool: "python3") }
      let output = try #require(
        try ExternalTool.run(
          "python3", ["-c", script], input: Data((lines.joined(separator: "\n") + "\n").utf8)))
      return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
  }

  struct ToolMissing: Error { var tool: String }

  /// How many canaries of each shape are minted: passwords carry the random symbols.
  static func count(of shape: CanaryShape) -> Int { shape == .password ? 400 : 40 }

  @Test(arguments: CanaryShape.allCases)
  func eachBuilderNamesOneEncodingForEveryMintedCanary(shape: CanaryShape) throws {
    let generator = CanaryGenerator()
    let canaries = (0..<Self.count(of: shape)).map { index in
      Canary(value: generator.makeValue(shape), location: .custom("c[\(index)]"), shape: shape)
    }
    let scanners = canaries.map { LeakScanner(canaries: [$0]) }
    for builder in Self.builders {
      let texts: [String]
      do {
        texts = try builder.build(canaries.map(\.value))
      } catch let missing as ToolMissing {
        DidNotRun.record("\(missing.tool) is not on PATH, so \(builder.name) was not checked")
        continue
      }
      try #require(texts.count == canaries.count, "\(builder.name) returned \(texts.count) lines")
      var names: [String: [String]] = [:]  // name → the first few texts that got it
      for (scanner, text) in zip(scanners, texts) {
        let found = scanner.scan(Data("GET \(text) 200\n".utf8), source: "log")
        let name = found.map(\.encoding).joined(separator: " + ")
        if names[name, default: []].count < 3 { names[name, default: []].append(text) }
      }
      #expect(names.count == 1, "\(shape) via \(builder.name): \(names)")
      #expect(names[""] == nil, "\(shape) via \(builder.name) not found: \(names[""] ?? [])")
      #expect(names["fragment"] == nil, "\(shape) via \(builder.name) found only in part: \(names)")
      if shape == .password {
        #expect(Set(names.keys) == [builder.passwordEncoding], "password via \(builder.name): \(names)")
      }
    }
  }

  @Test("every symbol a password draws is escaped by every URL and form encoder and by no other escape")
  func passwordSymbolsAreTreatedAlikeByEveryEncoder() {
    let sets: [(String, CharacterSet)] = [
      ("urlQueryAllowed", .urlQueryAllowed), ("urlPathAllowed", .urlPathAllowed),
      ("urlUserAllowed", .urlUserAllowed), ("urlPasswordAllowed", .urlPasswordAllowed),
      ("urlFragmentAllowed", .urlFragmentAllowed),
    ]
    for symbol in CanaryGenerator.passwordSymbols {
      let text = String(UnicodeScalar(symbol))
      for (name, set) in sets {
        #expect(text.addingPercentEncoding(withAllowedCharacters: set) != text, "\(name) keeps \(text)")
      }
      var components = URLComponents()
      components.queryItems = [URLQueryItem(name: "v", value: text)]
      #expect(components.percentEncodedQuery != "v=\(text)", "URLComponents.queryItems keeps \(text)")
      #expect(RequestKind.formEncoded([("v", text)]) != "v=\(text)")
      for escape in [ScanEncoding.jsonEscaped, .htmlEntity, .quotedPrintable] {
        #expect(!PatternEncoder.changes(escape, [symbol]), "\(escape) changes \(text)")
      }
    }
  }
}
