import Foundation
import Testing

/// The folder boundaries of the `CanaryTrap` target the compiler cannot see (DocC "Architecture"):
/// the canary manifests in `Canary/` name no other layer, and `Proof/` never names the matrix;
/// and the target boundaries the compiler checks only while `Package.swift` keeps them: the server's
/// tests depend on no canary target, the scanner and its tests on the primitives alone, and the
/// scanner's code is gone from the core.
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
    // The target's declaration, not the package's or a product's of the same name.
    var search = manifest.startIndex..<manifest.endIndex
    var found: Range<String.Index>?
    while found == nil, let candidate = manifest.range(of: "name: \"\(target)\"", range: search) {
      let before = manifest[..<candidate.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
      if before.hasSuffix("arget(") { found = candidate }
      search = candidate.upperBound..<manifest.endIndex
    }
    guard let name = found else { return nil }
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

  @Test("twin: a target without dependencies borrows none, and the package's name is no target")
  func aTargetWithoutDependenciesReadsAsEmpty() throws {
    let manifest = #"""
      let package = Package(
        name: "Top",
        products: [.library(name: "Top", targets: ["Top"])],
        targets: [
          .target(name: "Bottom", swiftSettings: strictSwift),
          .target(
            name: "Top", dependencies: ["Bottom"]),
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

  /// What the scanner may depend on: the primitives alone.
  static let scannerDependencies: Set<String> = ["CanaryTrapPrimitives"]

  /// What the scanner's tests may depend on: the scanner, the primitives and the shared test
  /// support (which knows only the server), no scope, sink or report.
  static let scannerTestDependencies: Set<String> = [
    "CanaryTrapPrimitives", "CanaryTrapScanner", "ServerTestSupport",
  ]

  @Test("the scanner depends on the primitives alone, and its tests on the scanner and the primitives")
  func scannerDependsOnThePrimitivesAlone() throws {
    let manifest = try Self.manifest()
    let scanner = try #require(Self.dependencies(of: "CanaryTrapScanner", in: manifest), "no scanner target")
    #expect(Set(scanner) == Self.scannerDependencies, "CanaryTrapScanner depends on \(scanner)")
    let tests = try #require(
      Self.dependencies(of: "CanaryTrapScannerTests", in: manifest), "no scanner tests")
    #expect(
      Set(tests).isSubset(of: Self.scannerTestDependencies), "CanaryTrapScannerTests depends on \(tests)")
    let core = try #require(Self.dependencies(of: "CanaryTrap", in: manifest))
    #expect(core.contains("CanaryTrapScanner"), "the core does not depend on the scanner: \(core)")
  }

  @Test("twin: a scanner that depends on the server is caught")
  func theScannerDependencyCheckCanFail() throws {
    let manifest =
      #".target(name: "CanaryTrapScanner", dependencies: ["CanaryTrapPrimitives", "CanaryTrapServer"]),"#
    let found = try #require(Self.dependencies(of: "CanaryTrapScanner", in: manifest))
    #expect(Set(found) != Self.scannerDependencies)
  }

  /// The modules a file of `text` imports (`import X`, `@testable import X`, `@_exported import X`).
  static func imports(in text: String) -> Set<String> {
    var modules: Set<String> = []
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
      if words.count == 2, words[0] == "import" { modules.insert(String(words[1])) }
    }
    return modules
  }

  /// What a file of the scanner may import: SwiftPM lets a target import any module that happens
  /// to be built before it, declared or not, so the manifest alone does not keep the server out.
  static let scannerImports: Set<String> = ["CanaryTrapPrimitives", "Darwin", "Foundation", "Glibc", "Musl"]

  @Test("no file of the scanner imports a module beyond the primitives and the system")
  func scannerImportsNothingAbove() throws {
    let root = Self.sources.deletingLastPathComponent().appendingPathComponent("CanaryTrapScanner")
    let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter {
      $0.hasSuffix(".swift")
    }
    #expect(files.count > 50, "only \(files.count) Swift files in \(root.path)")
    for file in files {
      let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      let extra = Self.imports(in: text).subtracting(Self.scannerImports)
      #expect(extra.isEmpty, "\(file) imports \(extra.sorted())")
    }
  }

  @Test("twin: an import of the server or the core, even indented or @testable, is caught")
  func theImportCheckCanFail() {
    let text =
      "import Foundation\n  import CanaryTrapServer\n@testable import CanaryTrap\n// import Nothing here"
    #expect(Self.imports(in: text).subtracting(Self.scannerImports) == ["CanaryTrapServer", "CanaryTrap"])
  }

  /// The files and folders the scanner target took from the core: none may come back.
  static let movedToScanner = [
    "Scanner", "Canary/Canary.swift", "Canary/CanaryLocation.swift", "Canary/CanaryShape.swift",
    "Canary/CanaryGenerator.swift", "Report/LeakFinding.swift", "Report/ScannedSource.swift",
    "Report/OmittedFindings.swift", "Sinks/SinkContent.swift", "Proof/LocationReader.swift",
  ]

  /// The paths of `paths` under `root` that are a Swift file or a folder holding one (git leaves
  /// a moved folder behind empty in a working copy).
  static func present(_ paths: [String], under root: URL) -> [String] {
    paths.filter { path in
      let url = root.appendingPathComponent(path)
      if path.hasSuffix(".swift") { return FileManager.default.fileExists(atPath: url.path) }
      let files = (try? FileManager.default.subpathsOfDirectory(atPath: url.path)) ?? []
      return files.contains { $0.hasSuffix(".swift") }
    }
  }

  @Test("the scanner's folders and vocabulary are gone from the core")
  func scannerCodeIsGoneFromTheCore() {
    #expect(Self.present(Self.movedToScanner, under: Self.sources) == [])
  }

  @Test("twin: a folder still in the core is reported")
  func theLeftoverCheckCanFail() {
    #expect(Self.present(["Scope", "Scanner"], under: Self.sources) == ["Scope"])
  }

  @Test("twin: the check finds a forbidden name used as an identifier, not inside a longer one")
  func theCheckCanFail() {
    let text = "let kind: RequestKind = .getQuery\nlet other = RequestKindCatalog()"
    #expect(Self.mentions(of: ["RequestKind", "MatrixResult"], in: text) == ["RequestKind"])
  }
}
