// swift-tools-version: 6.2
import PackageDescription

let strictSwift: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
  name: "CanaryTrap",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "CanaryTrap", targets: ["CanaryTrap"]),
    .library(name: "CanaryTrapTesting", targets: ["CanaryTrapTesting"]),
    .executable(name: "canary", targets: ["canary"]),
  ],
  targets: [
    // The bottom layer, under both the server and the core: the lock wrapper, checksums, hashes and
    // the percent decoder, all `package`, knowing nothing of HTTP or canaries.
    .target(name: "CanaryTrapPrimitives", swiftSettings: strictSwift),
    .target(name: "CanaryTrapServer", dependencies: ["CanaryTrapPrimitives"], swiftSettings: strictSwift),
    // The scanner and its vocabulary (canaries, locations, findings, scanned sources, sink content):
    // on the primitives alone, so it names no scope, sink, proof, matrix or report; the matcher's
    // internals stay internal to it. The core re-exports it.
    .target(name: "CanaryTrapScanner", dependencies: ["CanaryTrapPrimitives"], swiftSettings: strictSwift),
    .target(
      name: "CanaryTrap", dependencies: ["CanaryTrapPrimitives", "CanaryTrapScanner", "CanaryTrapServer"],
      swiftSettings: strictSwift),
    .target(
      name: "CanaryTrapTesting", dependencies: ["CanaryTrap", "CanaryTrapPrimitives"],
      swiftSettings: strictSwift),
    .target(name: "CanaryTrapExamples", dependencies: ["CanaryTrap"], swiftSettings: strictSwift),
    .target(
      name: "CanaryCLI", dependencies: ["CanaryTrap", "CanaryTrapExamples", "CanaryTrapPrimitives"],
      swiftSettings: strictSwift),
    .executableTarget(name: "canary", dependencies: ["CanaryCLI"], swiftSettings: strictSwift),
    .target(
      name: "CanaryBench", dependencies: ["CanaryCLI", "CanaryTrap", "CanaryTrapPrimitives"],
      swiftSettings: strictSwift),
    .executableTarget(name: "canary-bench", dependencies: ["CanaryBench"], swiftSettings: strictSwift),
    // What the server's tests and the core's tests share (a raw socket client, a started server, a
    // URLSession, DidNotRun): a plain target on the server alone, so server tests need no canary code.
    .target(
      name: "ServerTestSupport", dependencies: ["CanaryTrapServer"], path: "Tests/ServerTestSupport",
      swiftSettings: strictSwift),
    .testTarget(
      name: "CanaryTrapServerTests",
      dependencies: ["CanaryTrapPrimitives", "CanaryTrapServer", "ServerTestSupport"],
      swiftSettings: strictSwift),
    // The scanner's tests see the scanner and the primitives, no scope, sink or report.
    .testTarget(
      name: "CanaryTrapScannerTests",
      dependencies: ["CanaryTrapPrimitives", "CanaryTrapScanner", "ServerTestSupport"],
      swiftSettings: strictSwift),
    .testTarget(
      name: "CanaryTrapTests",
      dependencies: [
        "CanaryTrap", "CanaryTrapPrimitives", "CanaryTrapScanner", "CanaryTrapServer", "ServerTestSupport",
      ],
      swiftSettings: strictSwift),
    .testTarget(
      name: "CanaryTrapTestingTests",
      dependencies: ["CanaryTrap", "CanaryTrapPrimitives", "CanaryTrapTesting"],
      swiftSettings: strictSwift),
    .testTarget(
      name: "CanaryTrapExamplesTests",
      dependencies: ["CanaryTrap", "CanaryTrapExamples", "CanaryTrapPrimitives", "CanaryTrapTesting"],
      swiftSettings: strictSwift),
    .testTarget(
      name: "CanaryCLITests", dependencies: ["CanaryCLI", "CanaryTrapPrimitives", "ServerTestSupport"],
      swiftSettings: strictSwift),
    .testTarget(
      name: "CanaryTrapTemplates", dependencies: ["CanaryTrap", "CanaryTrapTesting"],
      path: "Templates/Tests", swiftSettings: strictSwift),
  ],
  swiftLanguageModes: [.v6]
)
