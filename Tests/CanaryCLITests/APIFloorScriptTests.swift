// Runs CI/check-api-floor.py with `Process` (macOS and Linux only) and python3.
#if os(macOS) || os(Linux)
  import Foundation
  import ServerTestSupport
  import Testing

  /// CI/check-api-floor.py: passes on this repository, and catches a Swift Testing symbol newer
  /// than the floor unless `#if compiler` guards it.
  @Suite("API floor script")
  struct APIFloorScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("CI/check-api-floor.py")

    /// Runs the script on `root`; nil (recording that the test did not run) when python3 is missing.
    private func runScript(on root: URL) throws -> (status: Int32, output: String)? {
      guard let python = ExternalTools.require("python3", for: "CI/check-api-floor.py") else { return nil }
      let process = TestProcess()
      process.executableURL = URL(fileURLWithPath: python)
      process.arguments = [Self.script.path, root.path]
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = pipe
      try ChildProcessLaunch.run(process)
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A package root with `Package.swift` at `toolsVersion` and the given test files.
    private func makePackage(toolsVersion: String = "6.2", files: [String: String]) throws -> URL {
      let root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "api-floor-\(UUID().uuidString)")
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent("Tests/T"), withIntermediateDirectories: true)
      try Data("// swift-tools-version: \(toolsVersion)\n".utf8).write(
        to: root.appendingPathComponent("Package.swift"))
      for (name, text) in files {
        try Data(text.utf8).write(to: root.appendingPathComponent("Tests/T/\(name)"))
      }
      return root
    }

    @Test func thisRepositoryUsesNoTestingAPINewerThanItsFloor() throws {
      guard let run = try runScript(on: Self.repository) else { return }
      #expect(run.status == 0, "\(run.output)")
      #expect(run.output.contains("use no Swift Testing API newer than Swift 6.2"), "\(run.output)")
    }

    @Test func anUnguardedNewerSymbolFailsWithItsFileAndLine() throws {
      let root = try makePackage(files: [
        "Leaky.swift": """
        import Testing

        func path(_ location: SourceLocation) -> String {
          location.filePath
        }
        """
      ])
      defer { try? FileManager.default.removeItem(at: root) }
      guard let run = try runScript(on: root) else { return }
      #expect(run.status == 1)
      #expect(run.output.contains("Tests/T/Leaky.swift:4: SourceLocation.filePath"), "\(run.output)")
    }

    @Test func aCompilerGuardAcceptsTheNewerSymbolButNotInItsElseBranch() throws {
      let guarded = """
        import Testing

        func path(_ location: SourceLocation) -> String {
          #if compiler(>=6.3)
            location.filePath
          #else
            location._filePath
          #endif
        }
        """
      let elseBranch = """
        import Testing

        func cancel() throws {
          #if compiler(>=6.3)
            print("new")
          #else
            try Test.cancel()
          #endif
        }
        """
      let root = try makePackage(files: ["Guarded.swift": guarded])
      defer { try? FileManager.default.removeItem(at: root) }
      guard let run = try runScript(on: root) else { return }
      #expect(run.status == 0, "\(run.output)")

      try Data(elseBranch.utf8).write(to: root.appendingPathComponent("Tests/T/Else.swift"))
      guard let second = try runScript(on: root) else { return }
      #expect(second.status == 1)
      #expect(second.output.contains("Tests/T/Else.swift:7: Test.cancel"), "\(second.output)")
    }

    @Test func filesThatDoNotImportTestingAndWaivedLinesAreNotReported() throws {
      let root = try makePackage(files: [
        "Plain.swift": "struct Site { var filePath = \"\" }\nlet path = Site().filePath\n",
        "Waived.swift": "import Testing\nlet p = Site().filePath  // api-floor: Site.filePath\n",
      ])
      defer { try? FileManager.default.removeItem(at: root) }
      guard let run = try runScript(on: root) else { return }
      #expect(run.status == 0, "\(run.output)")
    }

    @Test func aFloorBelowTheSymbolTableIsRefused() throws {
      let root = try makePackage(toolsVersion: "6.0", files: ["A.swift": "import Testing\n"])
      defer { try? FileManager.default.removeItem(at: root) }
      guard let run = try runScript(on: root) else { return }
      #expect(run.status == 2)
      #expect(run.output.contains("below 6.2"), "\(run.output)")
    }
  }
#endif
