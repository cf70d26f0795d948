import Foundation
import Testing

/// The folder boundaries of the `CanaryTrap` target the compiler cannot see (DocC "Architecture"):
/// the location vocabulary in `Canary/` names no other layer, and `Proof/` never names the matrix.
@Suite("Layers kept apart inside the CanaryTrap target")
struct LayeringTests {
  private static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/CanaryTrap")

  /// Each file of `folder` with the forbidden names it mentions.
  static func violations(in folder: String, forbidding names: [String]) throws -> [String: [String]] {
    let directory = sources.appendingPathComponent(folder)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasSuffix(".swift")
    }
    var found: [String: [String]] = [:]
    for file in files {
      let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
      let named = mentions(of: names, in: text)
      if !named.isEmpty { found[file] = named }
    }
    #expect(!files.isEmpty, "no Swift file in \(directory.path): nothing was checked")
    return found
  }

  /// The names of `names` that occur in `text` as whole identifiers.
  static func mentions(of names: [String], in text: String) -> [String] {
    let identifiers = Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    return names.filter(identifiers.contains)
  }

  @Test("Canary/ names no request kind, proof or server")
  func canaryFolderStandsAlone() throws {
    #expect(
      try Self.violations(
        in: "Canary", forbidding: ["RequestKind", "DeliveryProof", "LoopbackServer", "KindPlanter"]) == [:])
  }

  @Test("Proof/ never names a request kind or the matrix")
  func proofFolderNeverNamesTheMatrix() throws {
    #expect(
      try Self.violations(in: "Proof", forbidding: ["RequestKind", "KindPlanter", "MatrixResult"]) == [:])
  }

  @Test("twin: the check finds a forbidden name used as an identifier, not inside a longer one")
  func theCheckCanFail() {
    let text = "let kind: RequestKind = .getQuery\nlet other = RequestKindCatalog()"
    #expect(Self.mentions(of: ["RequestKind", "MatrixResult"], in: text) == ["RequestKind"])
  }
}
