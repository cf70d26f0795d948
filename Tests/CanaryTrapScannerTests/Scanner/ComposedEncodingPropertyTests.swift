import Foundation
import Testing

@testable import CanaryTrapScanner

/// Random values through random Foundation escape × wrapper pairs, in base64- and hex-heavy
/// filler: each found once under the right chain. And a realistic log full of base64, hex and
/// other canaries' encoded bodies yields nothing, while the same log with one composed leak
/// planted yields exactly that leak.
@Suite struct ComposedEncodingPropertyTests {
  typealias SeededGenerator = ScannerOracleTests.SeededGenerator

  static let letters = Array("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
  static let symbols = Array("+&=/ %#!@$<>'")

  /// `cnry`, 20 random letters, then symbols that every escape below changes.
  static func randomValue(_ random: inout SeededGenerator) -> String {
    var value = "cnry"
    for _ in 0..<20 { value.append(letters.randomElement(using: &random)!) }
    value += " /&"
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      value.append((letters + symbols).randomElement(using: &random)!)
    }
    return value
  }

  static func escape(_ value: String, _ step: ScanEncoding) -> String {
    switch step {
    case .percent: value.addingPercentEncoding(withAllowedCharacters: ComposedEncodingTests.unreserved)!
    case .form: ComposedEncodingTests.formEncoded(value)
    case .jsonEscaped: ComposedEncodingTests.jsonEscaped(value)
    default: ComposedEncodingTests.xmlEscaped(value)
    }
  }

  static func wrap(_ text: String, _ wrapper: ScanEncoding) -> [UInt8] {
    let data = Data(text.utf8)
    switch wrapper {
    case .base64: return Array(data.base64EncodedString().utf8)
    case .base64url:
      return Array(
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
          of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "").utf8)
    case .hex: return Array(data.map { String(format: "%02x", $0) }.joined().utf8)
    default: return Array(text.data(using: .utf16LittleEndian)!)
    }
  }

  static func filler(_ random: inout SeededGenerator) -> [UInt8] {
    let bytes = (0..<Int.random(in: 8...90, using: &random)).map { _ in
      UInt8.random(in: 0...255, using: &random)
    }
    switch Int.random(in: 0..<3, using: &random) {
    case 0: return Array("blob=\(Data(bytes).base64EncodedString())\n".utf8)
    case 1: return Array("id=\(bytes.map { String(format: "%02x", $0) }.joined())\n".utf8)
    default: return Array("body=\(Data(bytes).base64EncodedString(options: .lineLength64Characters))\n".utf8)
    }
  }

  @Test(arguments: [1, 2, 3])
  func randomEscapeInRandomWrapperIsFoundOnce(seed: UInt64) {
    var random = SeededGenerator(state: seed)
    for round in 0..<40 {
      let value = Self.randomValue(&random)
      let canary = Canary(value: value, location: .custom("p[\(round)]"))
      let step = [ScanEncoding.percent, .form, .jsonEscaped, .htmlEntity].randomElement(using: &random)!
      let wrapper = [ScanEncoding.base64, .base64url, .hex, .utf16le].randomElement(using: &random)!
      let prefix = String(repeating: "k", count: Int.random(in: 0..<3, using: &random))
      let escaped = prefix + Self.escape(value, step)
      var expected = EncodingChain([step, wrapper])
      if wrapper == .base64url
        && !Data(escaped.utf8).base64EncodedString().contains(where: { "+/".contains($0) })
      {
        expected = EncodingChain([step, .base64])
      }
      var text =
        Self.filler(&random) + Array("x=".utf8) + Self.wrap(escaped, wrapper) + [0x0A] + Self.filler(&random)
      text += Self.filler(&random)
      let found = LeakScanner(canaries: [canary]).scan(Data(text), source: "p").map(\.encodings)
      #expect(found == [expected], "round \(round): \(value) \(step) \(wrapper)")
    }
  }

  /// A realistic log: request lines, base64 and hex blobs, MIME-wrapped bodies, and request
  /// bodies of other canaries (same shapes, minted apart) escaped and wrapped every way.
  static func realisticLog(_ random: inout SeededGenerator, strangers: [Canary]) -> Data {
    var log: [UInt8] = []
    for index in 0..<1500 {
      log += Array("2026-11-30T21:00:\(index % 60)Z INFO GET /v1/items/\(index) 200\n".utf8)
      log += filler(&random)
      let stranger = strangers[index % strangers.count]
      let step = [ScanEncoding.percent, .form, .jsonEscaped, .htmlEntity][index % 4]
      let wrapper = [ScanEncoding.base64, .base64url, .hex, .utf16le][(index / 4) % 4]
      log += Array("stored=".utf8) + wrap("{\"v\":\"\(escape(stranger.value, step))\"}", wrapper) + [0x0A]
    }
    return Data(log)
  }

  @Test func realisticBase64AndHexHeavyLogHoldsNoFalseFinding() {
    var random = SeededGenerator(state: 2026)
    let generator = CanaryGenerator()
    let shapes = CanaryShape.allCases
    let ours = (0..<120).map {
      Canary(
        value: generator.makeValue(shapes[$0 % shapes.count]), location: .custom("ours[\($0)]"),
        shape: shapes[$0 % shapes.count])
    }
    let strangers = (0..<60).map {
      Canary(
        value: generator.makeValue(shapes[$0 % shapes.count]), location: .custom("theirs[\($0)]"),
        shape: shapes[$0 % shapes.count])
    }
    let scanner = LeakScanner(canaries: ours)
    let log = Self.realisticLog(&random, strangers: strangers)
    let findings = scanner.scan(log, source: "clean")
    #expect(findings.isEmpty, "\(findings.prefix(3))")

    // The twin: one of our passwords, JSON-escaped in a base64 body, among the same lines.
    let password = ours.first { $0.shape == .password }!
    var leaky = log
    leaky.append(
      contentsOf: Array("stored=".utf8)
        + Self.wrap("{\"p\":\"\(Self.escape(password.value, .jsonEscaped))\"}", .base64))
    leaky.append(contentsOf: Array(log.prefix(5000)))
    let leaks = scanner.scan(leaky, source: "leaky")
    #expect(leaks.map(\.encodings) == [EncodingChain([.jsonEscaped, .base64])])
    #expect(leaks.first?.canary == password)
  }
}
