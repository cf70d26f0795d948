import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tests' lookup of the built `canary` executable, on real files in a temporary directory.
@Suite("Finding the canary executable")
struct CanaryExecutableLookupTests {
  /// A temporary directory with `canary` files made where each test asks.
  final class Layout {
    let root: URL

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "canary-lookup-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Creates `relative` as a file with the given permissions and returns its path.
    @discardableResult
    func file(_ relative: String, executable: Bool = true) throws -> String {
      let url = root.appendingPathComponent(relative)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("#!/bin/sh\n".utf8).write(to: url)
      chmod(url.path, executable ? 0o755 : 0o644)
      return url.standardizedFileURL.path
    }

    /// Creates `relative` as a directory and returns its path.
    @discardableResult
    func directory(_ relative: String) throws -> String {
      let url = root.appendingPathComponent(relative)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      return url.standardizedFileURL.path
    }
  }

  @Test func anExplicitPathInTheEnvironmentWins() throws {
    let layout = try Layout()
    let explicit = try layout.file("elsewhere/my-canary")
    try layout.file("products/canary")
    let lookup = CanaryExecutableLookup(
      environment: ["CANARY_EXECUTABLE": explicit],
      bundlePaths: [layout.root.appendingPathComponent("products/Tests.xctest").path],
      argument0: "")
    #expect(lookup.find().url?.standardizedFileURL.path == explicit)
  }

  @Test func theProductsDirectoryOfAnXCTestBundleIsSearched() throws {
    let layout = try Layout()
    let products = try layout.directory("DerivedData/Build/Products/Debug")
    try layout.directory("DerivedData/Build/Products/Debug/CanaryCLITests.xctest")
    let executable = try layout.file("DerivedData/Build/Products/Debug/canary")
    let lookup = CanaryExecutableLookup(
      environment: [:], bundlePaths: [products + "/CanaryCLITests.xctest", "/Applications/Xcode.app"],
      argument0: "/Applications/Xcode.app/Contents/Developer/usr/bin/xctest")
    #expect(lookup.find().url?.standardizedFileURL.path == executable)
  }

  @Test func xcodesBuiltProductsDirectoriesAreSearched() throws {
    let layout = try Layout()
    let executable = try layout.file("b/canary")
    let lookup = CanaryExecutableLookup(
      environment: ["__XCODE_BUILT_PRODUCTS_DIR_PATHS": layout.root.path + "/a:" + layout.root.path + "/b"],
      bundlePaths: [], argument0: "")
    #expect(lookup.find().url?.standardizedFileURL.path == executable)
  }

  @Test func theTestBinarysDirectoryAndItsParentsAreSearched() throws {
    let layout = try Layout()
    let executable = try layout.file(".build/debug/canary")
    try layout.file(".build/debug/Pkg.xctest/Contents/MacOS/Pkg")
    let lookup = CanaryExecutableLookup(
      environment: [:], bundlePaths: [],
      argument0: layout.root.appendingPathComponent(".build/debug/Pkg.xctest/Contents/MacOS/Pkg").path)
    #expect(lookup.find().url?.standardizedFileURL.path == executable)
  }

  @Test func aNonExecutableFileOrADirectoryNamedCanaryIsNotTheExecutable() throws {
    let layout = try Layout()
    try layout.file("one/canary", executable: false)
    try layout.directory("two/canary")
    let lookup = CanaryExecutableLookup(
      environment: [
        "__XCODE_BUILT_PRODUCTS_DIR_PATHS": layout.root.path + "/one:" + layout.root.path + "/two"
      ],
      bundlePaths: [], argument0: "")
    #expect(lookup.find().url == nil)
  }

  @Test func notFindingItNamesEveryPlaceSearchedAndTheOverride() throws {
    let layout = try Layout()
    let notExecutable = try layout.file("plain", executable: false)
    let products = try layout.directory("products")
    let lookup = CanaryExecutableLookup(
      environment: ["CANARY_EXECUTABLE": notExecutable], bundlePaths: [products + "/Tests.xctest"],
      argument0: "")
    let outcome = lookup.find()
    #expect(outcome.url == nil)
    #expect(outcome.explanation.hasPrefix("canary executable not found"))
    #expect(outcome.explanation.contains("CANARY_EXECUTABLE=\(notExecutable) (not an executable file)"))
    #expect(outcome.explanation.contains(products))
  }

  #if os(Linux)
    /// Under `swift test` the executable is built beside the test binary, so the lookup must find
    /// it: otherwise the process test would only ever record a known issue.
    @Test func swiftTestOnLinuxFindsTheBuiltExecutable() {
      #expect(CanaryExecutableLookup.shared.url != nil, "\(CanaryExecutableLookup.shared.explanation)")
    }
  #endif
}
