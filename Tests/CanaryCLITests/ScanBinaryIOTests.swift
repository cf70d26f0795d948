// Runs the built executable with `Process`, which exists on macOS and Linux only.
#if os(macOS) || os(Linux)
  import CanaryTrap
  import Foundation
  import Testing

  /// The real `canary` executable with broken standard streams: every I/O failure is exit 2 with a
  /// one-line message on standard error, never a crash (Foundation's `FileHandle` used to raise
  /// SIGILL).
  @Suite(
    .enabled(
      if: CanaryExecutableLookup.shared.url != nil,
      "needs the canary executable: \(CanaryExecutableLookup.shared.explanation)"))
  struct ScanBinaryIOTests {
    static let leak = "X-Session: \(ScanWorkspace.canary.value)\n"

    func run(_ script: String) throws -> (CanaryProcess.Outcome, ScanWorkspace) {
      let workspace = try ScanWorkspace()
      try workspace.write("leak.log", Self.leak)
      try workspace.write("clean.log", "GET / 200\n")
      return (try CanaryProcess.run(script, in: workspace.root), workspace)
    }

    @Test func standardInputThatIsADirectory() throws {
      let (outcome, workspace) = try run(#""$CANARY" scan --manifest manifest.json - < /"#)
      defer { workspace.remove() }
      #expect(!outcome.crashed)
      #expect(outcome.status == 2)
      #expect(outcome.error.contains("cannot read standard input: Is a directory"))
    }

    @Test func standardInputThatIsClosed() throws {
      let (outcome, workspace) = try run(#""$CANARY" scan --manifest manifest.json - <&-"#)
      defer { workspace.remove() }
      #expect(!outcome.crashed)
      #expect(outcome.status == 2)
      #expect(outcome.error.contains("cannot read standard input: it is closed"))
    }

    @Test func standardInputWithALeakIsFound() throws {
      // Twin of the broken standard input tests.
      let (outcome, workspace) = try run(#""$CANARY" scan --manifest manifest.json - < leak.log"#)
      defer { workspace.remove() }
      #expect(outcome.status == 1)
      #expect(outcome.output.contains("LEAKY"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func standardOutputThatIsFull() throws {
      let (outcome, workspace) = try run(#""$CANARY" scan --manifest manifest.json leak.log > /dev/full"#)
      defer { workspace.remove() }
      #expect(!outcome.crashed)
      #expect(outcome.status == 2)
      #expect(outcome.error.contains("cannot write standard output: No space left on device"))
    }

    @Test func standardOutputThatIsClosed() throws {
      let (outcome, workspace) = try run(#""$CANARY" scan --manifest manifest.json leak.log >&-"#)
      defer { workspace.remove() }
      #expect(!outcome.crashed)
      #expect(outcome.status == 2)
      #expect(outcome.error.contains("cannot write standard output: it is closed"))
      // The closed descriptor was not reused: the scanned file is unchanged.
      #expect(try String(contentsOfFile: workspace.path("leak.log"), encoding: .utf8) == Self.leak)
    }

    @Test func standardOutputWhoseReaderLeft() throws {
      let (outcome, workspace) = try run(
        #"yes "$(cat leak.log)" | head -n 5000 > big.log && { "$CANARY" scan --manifest manifest.json --max-findings 5000 big.log; echo "canary=$?" >&2; } | head -c 1 > /dev/null"#
      )
      defer { workspace.remove() }
      #expect(outcome.error.contains("canary=2"))
      #expect(outcome.error.contains("cannot write standard output: Broken pipe"))
    }

    @Test(.enabled(if: fileSystemTakesAnyBytes, "this file system refuses names that are not UTF-8"))
    func aNameThatIsNotUTF8IsScannedAsAnArgumentAndEscapedOnStandardError() throws {
      let (outcome, workspace) = try run(
        #"cp leak.log "$(printf "odd\377\033[31m.log")" && "$CANARY" scan --manifest manifest.json "$(printf "odd\377\033[31m.log")" "$(printf "gone\033[2J.log")""#
      )
      defer { workspace.remove() }
      #expect(outcome.status == 1)
      #expect(outcome.output.contains(#"odd\xFF\x1B[31m.log, raw, line 1:12"#))
      #expect(outcome.error.contains(#"cannot read gone\x1B[2J.log: No such file or directory"#))
      #expect(!outcome.error.contains("\u{1B}"))
    }
  }
#endif
