import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File names are bytes: names that are not UTF-8 are scanned, in directories and as arguments,
/// and control bytes in names are escaped wherever they are shown.
@Suite(.enabled(if: fileSystemTakesAnyBytes, "this file system refuses names that are not UTF-8"))
struct ScanNameTests {
  let leak = "X-Session: \(ScanWorkspace.canary.value)\n"
  /// `odd<FF><ESC>[31m.log`: invalid UTF-8 and a terminal escape.
  static let oddName: [UInt8] = Array("odd".utf8) + [0xFF, 0x1B] + Array("[31m.log".utf8)

  func create(_ path: ScanPath, _ text: String) throws {
    let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    try #require(fd >= 0)
    _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }

  @Test func aNonUTF8NameInADirectoryIsScannedAndEscaped() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let directory = ScanPath(workspace.path("logs"))
    try FileManager.default.createDirectory(atPath: workspace.path("logs"), withIntermediateDirectories: true)
    try create(directory.appending(Self.oddName), leak)
    let result = await workspace.scan(["--manifest", workspace.manifest, workspace.path("logs")])
    #expect(result.status == ExitStatus.leaks)
    #expect(result.output.contains(#"odd\xFF\x1B[31m.log"#))
    #expect(!result.output.contains("\u{1B}"))
  }

  @Test func aNonUTF8NameAsAnArgumentIsScanned() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let path = ScanPath(workspace.root.path).appending(Self.oddName)
    try create(path, leak)
    let missing = ScanPath(workspace.root.path).appending(
      Array("gone".utf8) + [0xFE, 0x1B] + Array("[2J".utf8))
    let arguments = [
      "scan", "--manifest", workspace.manifest, String(decoding: path.bytes, as: UTF8.self),
      String(decoding: missing.bytes, as: UTF8.self),
    ]
    let captured = CapturedIO()
    var io = captured.io
    io.argumentBytes = arguments.dropLast(2).map { Array($0.utf8) } + [path.bytes, missing.bytes]
    let status = await CommandLineTool.run(arguments, io: io)
    #expect(status == ExitStatus.leaks)
    #expect(captured.standardOutput.contains(#"odd\xFF\x1B[31m.log, raw, line 1:12"#))
    #expect(captured.standardError.contains(#"gone\xFE\x1B[2J: No such file or directory"#))
    #expect(!captured.standardError.contains("\u{1B}"))
  }

  @Test func withoutTheBytesTheRepairedNameIsNotFound() async throws {
    // Twin: the name as `CommandLine.arguments` repairs it (U+FFFD) does not exist, which is
    // what the bytes above avoid.
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let path = ScanPath(workspace.root.path).appending(Self.oddName)
    try create(path, leak)
    let result = await workspace.scan([
      "--manifest", workspace.manifest, String(decoding: path.bytes, as: UTF8.self),
    ])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("No such file or directory"))
  }
}

/// Control characters in anything `canary scan` writes to standard error are escaped.
@Suite struct ScanMessageEscapingTests {
  @Test func controlCharactersInAnyMessageAreEscaped() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let option = await workspace.scan(["--\u{1B}]0;title\u{07}", "x"])
    #expect(option.status == ExitStatus.usage)
    #expect(option.error.contains(#"unknown option '--\x1B]0;title\x07'"#))
    let short = try workspace.write("m.json", #"{"canaries": [{"value": "\u001b[2Jab", "location": "x"}]}"#)
    let value = await workspace.scan(["--manifest", short, "x"])
    #expect(value.status == ExitStatus.usage)
    #expect(value.error.contains(#"\x1B[2Jab"#))
    for text in [option.error, value.error] { #expect(!text.contains("\u{1B}")) }
  }
}
