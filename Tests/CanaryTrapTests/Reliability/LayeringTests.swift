import Foundation
import Testing

/// The folder boundaries of the `CanaryTrap` target the compiler cannot see (DocC "Architecture"):
/// the location vocabulary in `Canary/` names no other layer, and `Proof/` never names the matrix;
/// and the target boundary the compiler checks only while `Package.swift` keeps it: the server's
/// tests depend on no canary target.
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

  /// The dependencies `Package.swift` gives the target named `target`, or nil when it names none.
  static func dependencies(of target: String, in manifest: String) -> [String]? {
    guard let name = manifest.range(of: "name: \"\(target)\""),
      let open = manifest[name.upperBound...].range(of: "dependencies: ["),
      let close = manifest[open.upperBound...].firstIndex(of: "]")
    else { return nil }
    return manifest[open.upperBound..<close].split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(
        in: CharacterSet(charactersIn: "\""))
    }
  }

  /// What the server's tests may depend on: the server and their shared support, no canary code.
  static let serverTestDependencies: Set<String> = ["CanaryTrapServer", "ServerTestSupport"]

  @Test("the server's tests and their support target depend on the server alone")
  func serverTestsDependOnTheServerAlone() throws {
    let manifest = try String(
      contentsOf: Self.sources.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Package.swift"), encoding: .utf8)
    for target in ["ServerTestSupport", "CanaryTrapServerTests"] {
      let found = try #require(Self.dependencies(of: target, in: manifest), "no \(target) in Package.swift")
      #expect(Set(found).isSubset(of: Self.serverTestDependencies), "\(target) depends on \(found)")
    }
  }

  @Test("twin: a server test target that depends on the core is caught")
  func theDependencyCheckCanFail() throws {
    let manifest = #".testTarget(name: "X", dependencies: ["CanaryTrap", "CanaryTrapServer"]),"#
    let found = try #require(Self.dependencies(of: "X", in: manifest))
    #expect(found == ["CanaryTrap", "CanaryTrapServer"])
    #expect(!Set(found).isSubset(of: Self.serverTestDependencies))
  }

  @Test("twin: the check finds a forbidden name used as an identifier, not inside a longer one")
  func theCheckCanFail() {
    let text = "let kind: RequestKind = .getQuery\nlet other = RequestKindCatalog()"
    #expect(Self.mentions(of: ["RequestKind", "MatrixResult"], in: text) == ["RequestKind"])
  }
}
