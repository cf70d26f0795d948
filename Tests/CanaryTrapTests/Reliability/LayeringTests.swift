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

  /// The dependencies `Package.swift` gives the target named `target` (empty when its declaration
  /// lists none), or nil when no target has that name.
  static func dependencies(of target: String, in manifest: String) -> [String]? {
    guard let name = manifest.range(of: "name: \"\(target)\"") else { return nil }
    let declaration = manifest[name.upperBound...]
    let end = declaration.range(of: "name: \"")?.lowerBound ?? declaration.endIndex
    guard let open = declaration[..<end].range(of: "dependencies: ["),
      let close = declaration[open.upperBound..<end].firstIndex(of: "]")
    else { return [] }
    return declaration[open.upperBound..<close].split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(
        in: CharacterSet(charactersIn: "\""))
    }
  }

  /// The package's manifest.
  static func manifest() throws -> String {
    try String(
      contentsOf: sources.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Package.swift"), encoding: .utf8)
  }

  /// What the server's tests may depend on: the server, the primitives under it and their shared
  /// support, no canary code.
  static let serverTestDependencies: Set<String> = [
    "CanaryTrapPrimitives", "CanaryTrapServer", "ServerTestSupport",
  ]

  @Test("the primitives depend on no other target, and the server on the primitives alone")
  func bottomLayersDependOnlyDownward() throws {
    let manifest = try Self.manifest()
    #expect(try #require(Self.dependencies(of: "CanaryTrapPrimitives", in: manifest)) == [])
    #expect(try #require(Self.dependencies(of: "CanaryTrapServer", in: manifest)) == ["CanaryTrapPrimitives"])
  }

  @Test("twin: a target without dependencies does not borrow the next target's")
  func aTargetWithoutDependenciesReadsAsEmpty() throws {
    let manifest = #"""
      .target(name: "Bottom", swiftSettings: strictSwift),
      .target(name: "Top", dependencies: ["Bottom"]),
      """#
    #expect(try #require(Self.dependencies(of: "Bottom", in: manifest)) == [])
    #expect(try #require(Self.dependencies(of: "Top", in: manifest)) == ["Bottom"])
    #expect(Self.dependencies(of: "Missing", in: manifest) == nil)
  }

  @Test("the server's tests and their support target depend on the server alone")
  func serverTestsDependOnTheServerAlone() throws {
    let manifest = try Self.manifest()
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
