import Foundation

/// Finds the built `canary` executable for tests that run it as a process, in the places SwiftPM
/// and Xcode put it, and says where it looked when it is not there.
///
/// Order: `CANARY_EXECUTABLE` (an explicit path, for any runner), then the directories of the
/// loaded `.xctest` bundles (Xcode and SwiftPM on macOS put the bundle in the products directory,
/// beside the executable), then Xcode's `__XCODE_BUILT_PRODUCTS_DIR_PATHS`, then the directory
/// of `CommandLine.arguments[0]` and its parents (SwiftPM on Linux runs the test binary from the
/// products directory; under Xcode it is the test runner, so this comes last).
struct CanaryExecutableLookup {
  /// The outcome: the executable, or every place searched and why none fit.
  enum Outcome {
    case found(URL)
    case notFound(searched: [String])

    /// The executable, or nil.
    var url: URL? {
      if case .found(let url) = self { return url }
      return nil
    }

    /// Why nothing was found, naming each place searched and the override.
    var explanation: String {
      switch self {
      case .found(let url): return "found \(url.path)"
      case .notFound(let searched):
        return "canary executable not found (build it with 'swift build', or set CANARY_EXECUTABLE "
          + "to its path); searched: " + searched.joined(separator: ", ")
      }
    }
  }

  var environment: [String: String]
  var bundlePaths: [String]
  var argument0: String
  var executableName = "canary"

  /// The lookup of the running test process.
  static var current: CanaryExecutableLookup {
    CanaryExecutableLookup(
      environment: ProcessInfo.processInfo.environment,
      bundlePaths: (Bundle.allBundles + [Bundle.main]).map(\.bundlePath),
      argument0: CommandLine.arguments.first ?? "")
  }

  /// The executable of the running test process, looked up once.
  static let shared: Outcome = current.find()

  /// Searches every candidate in order.
  func find() -> Outcome {
    var searched: [String] = []
    if let explicit = environment["CANARY_EXECUTABLE"], !explicit.isEmpty {
      if FileManager.default.isExecutableFile(atPath: explicit) {
        return .found(URL(fileURLWithPath: explicit))
      }
      searched.append("CANARY_EXECUTABLE=\(explicit) (not an executable file)")
    }
    for directory in candidateDirectories() {
      let candidate = URL(fileURLWithPath: directory).appendingPathComponent(executableName)
      if FileManager.default.isExecutableFile(atPath: candidate.path) {
        // A directory named `canary` (or a bundle) is not the executable.
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
          !isDirectory.boolValue
        {
          return .found(candidate)
        }
      }
      searched.append(directory)
    }
    return .notFound(searched: searched)
  }

  /// The directories to look in, in order, each once.
  func candidateDirectories() -> [String] {
    var directories: [String] = []
    func add(_ path: String) {
      let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
      if !standardized.isEmpty, !directories.contains(standardized) { directories.append(standardized) }
    }
    for bundle in bundlePaths where bundle.hasSuffix(".xctest") {
      add(URL(fileURLWithPath: bundle).deletingLastPathComponent().path)
    }
    for path in (environment["__XCODE_BUILT_PRODUCTS_DIR_PATHS"] ?? "").split(separator: ":") {
      add(String(path))
    }
    if !argument0.isEmpty {
      var directory = URL(fileURLWithPath: argument0).deletingLastPathComponent()
      for _ in 0..<4 {
        add(directory.path)
        directory = directory.deletingLastPathComponent()
      }
    }
    return directories
  }
}
