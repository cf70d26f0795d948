import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

/// A container's own bytes are input too (issue 37): a canary in a name, a comment, a pax record, a
/// gzip header or after an archive's end is found, named by the container itself; a sparse tar
/// member and a zip appended to a zip are read. Each leak has a clean twin built the same way,
/// which must scan clean, so the check is not passing on noise.
@Suite struct ContainerOwnBytesTests {
  /// How one case builds its file from `value` (the canary or a harmless word); nil when a tool
  /// is missing (recorded as did not run).
  struct Case: CustomStringConvertible, Sendable {
    let description: String
    let file: String
    /// The source a leak must be reported under.
    let expected: String
    let tools: [String]
    let build: @Sendable (ContainerFixtures, String) throws -> Bool
  }

  static let clean = ContainerFixtures.log(leak: false)

  static let cases: [Case] = [
    Case(description: "gzip FNAME", file: "a.gz", expected: "a.gz", tools: ["python3"]) { files, value in
      try files.python(
        """
        import gzip
        with open('a.gz', 'wb') as raw:
            with gzip.GzipFile(filename='\(value).log', mode='wb', fileobj=raw) as f:
                f.write(b'''\(clean)''')
        """)
    },
    Case(description: "gzip FCOMMENT", file: "a.gz", expected: "a.gz", tools: ["python3"]) { files, value in
      try files.python(
        """
        import struct, zlib
        data = b'''\(clean)'''
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        body = c.compress(data) + c.flush()
        head = b'\\x1f\\x8b\\x08\\x10' + b'\\0' * 4 + b'\\0\\x03' + b'note \(value)\\0'
        tail = struct.pack('<II', zlib.crc32(data), len(data))
        open('a.gz', 'wb').write(head + body + tail)
        """)
    },
    Case(description: "zip archive comment", file: "a.zip", expected: "a.zip", tools: ["python3"]) {
      files, value in
      try files.python(
        """
        import zipfile
        with zipfile.ZipFile('a.zip', 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('app.log', b'''\(clean)''')
            z.comment = b'built by \(value)'
        """)
    },
    Case(description: "zip member comment", file: "a.zip", expected: "a.zip", tools: ["python3"]) {
      files, value in
      try files.python(
        """
        import zipfile
        with zipfile.ZipFile('a.zip', 'w', zipfile.ZIP_DEFLATED) as z:
            info = zipfile.ZipInfo('app.log')
            info.comment = b'owner \(value)'
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, b'''\(clean)''')
        """)
    },
    Case(description: "zip member name", file: "a.zip", expected: "a.zip", tools: ["zip"]) { files, value in
      try files.write("\(value).log", clean)
      return try files.run("zip", ["-q", "a.zip", "\(value).log"])
    },
    Case(description: "tar member name", file: "a.tar", expected: "a.tar", tools: ["tar"]) { files, value in
      try files.write("\(value).log", clean)
      return try files.run("tar", ["-cf", "a.tar", "\(value).log"])
    },
    Case(description: "pax record", file: "a.tar", expected: "a.tar", tools: ["tar"]) { files, value in
      try files.write("app.log", clean)
      return try files.run(
        "tar", ["--format=pax", "--pax-option=comment=\(value)", "-cf", "a.tar", "app.log"])
    },
    Case(description: "bytes after a zip's end record", file: "a.zip", expected: "a.zip", tools: ["zip"]) {
      files, value in
      try files.write("app.log", clean)
      guard try files.run("zip", ["-q", "a.zip", "app.log"]) else { return false }
      try append("after the end \(value)\n", to: files.url("a.zip"))
      return true
    },
    Case(description: "bytes after a tar's end blocks", file: "a.tar", expected: "a.tar", tools: ["tar"]) {
      files, value in
      try files.write("app.log", clean)
      guard try files.run("tar", ["-cf", "a.tar", "app.log"]) else { return false }
      try append("after the end \(value)\n", to: files.url("a.tar"))
      return true
    },
    Case(
      description: "bytes after a tar's end, past the first read", file: "a.tar", expected: "a.tar",
      tools: ["tar"]
    ) { files, value in
      // 3 MB of member first, so the bytes after the end arrive in a later read than the first.
      try files.write(
        "big.log", String(repeating: "nothing to see in this line of a big log\n", count: 75_000))
      guard try files.run("tar", ["-cf", "a.tar", "big.log"]) else { return false }
      try append("after the end \(value)\n", to: files.url("a.tar"))
      return true
    },
    Case(
      description: "a deflated zip appended to a zip", file: "a.zip", expected: "a.zip!/second.log",
      tools: ["python3"]
    ) { files, value in
      try files.python(
        """
        import io, zipfile
        def archive(name, text):
            out = io.BytesIO()
            with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr(name, text * 20)
            return out.getvalue()
        first = archive('first.log', b'''\(clean)''')
        open('a.zip', 'wb').write(first + archive('second.log', b'token=\(value)\\n'))
        """)
    },
    Case(
      description: "a GNU sparse tar member", file: "a.tar", expected: "a.tar!/sparse.log",
      tools: ["python3", "tar"]
    ) { files, value in
      guard
        try files.python(
          """
          with open('sparse.log', 'wb') as f:
              f.truncate(4 << 20)
              f.seek(1 << 20)
              f.write(b'token=\(value)\\n')
          """)
      else { return false }
      return try files.run("tar", ["-S", "-cf", "a.tar", "sparse.log"])
    },
    Case(
      description: "a zip behind a text stub", file: "a.zip", expected: "a.zip!/app.log", tools: ["python3"]
    ) {
      files, value in
      try files.python(
        """
        import io, zipfile
        out = io.BytesIO()
        with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('app.log', b'token=\(value)\\n' * 20)
        stub = b'#!/bin/sh\\necho this is a self-extractor\\nexit 0\\n'
        open('a.zip', 'wb').write(stub + out.getvalue())
        """)
    },
    Case(
      description: "a zip member only the central directory reaches", file: "a.zip",
      expected: "a.zip!/hidden.log", tools: ["python3"]
    ) { files, value in
      // The hidden member's local header and data sit in the extra field of the visible one's
      // local header: a front-to-back read skips them, the central directory points at them.
      try files.python(
        """
        import struct, zlib
        def local(name, data, method, extra=b''):
            comp = data
            if method == 8:
                c = zlib.compressobj(9, zlib.DEFLATED, -15)
                comp = c.compress(data) + c.flush()
            head = struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, method, 0, 0, zlib.crc32(data),
                               len(comp), len(data), len(name), len(extra)) + name + extra
            return head + comp, (method, zlib.crc32(data), len(comp), len(data))
        def central(name, info, offset):
            method, crc, clen, size = info
            return struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, method, 0, 0, crc, clen,
                               size, len(name), 0, 0, 0, 0, 0, offset) + name
        hidden, hidden_info = local(b'hidden.log', b'token=\(value)\\n' * 20, 8)
        extra = struct.pack('<HH', 0xCAFE, len(hidden)) + hidden
        visible, visible_info = local(b'app.log', b'nothing here\\n', 0, extra)
        directory = central(b'app.log', visible_info, 0) + central(b'hidden.log', hidden_info, 30 + 7 + 4)
        end = struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 2, 2, len(directory), len(visible), 0)
        open('a.zip', 'wb').write(visible + directory + end)
        """)
    },
  ]

  static func append(_ text: String, to url: URL) throws {
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(text.utf8))
  }

  /// Builds the case with `value`, or returns nil after recording that it did not run.
  static func build(_ testCase: Case, value: String) throws -> (ContainerFixtures, Bool)? {
    for tool in testCase.tools where ContainerFixtures.locate(tool) == nil {
      DidNotRun.record("\(tool) is not installed: \(testCase.description)")
      return nil
    }
    let files = try ContainerFixtures()
    return (files, try testCase.build(files, value))
  }

  @Test(arguments: cases)
  func aCanaryInTheContainersOwnBytesIsFound(_ testCase: Case) throws {
    guard let (files, built) = try Self.build(testCase, value: ContainerFixtures.canary.value) else { return }
    defer { files.remove() }
    guard built else { return }
    let result = files.scan(testCase.file)
    // Found where it is, and only there: the raw bytes do not count a member's canary again.
    #expect(Set(result.findings.map(\.source)) == [testCase.expected], "\(result.findings.map(\.source))")
  }

  @Test(arguments: cases)
  func theCleanTwinIsClean(_ testCase: Case) throws {
    guard let (files, built) = try Self.build(testCase, value: "cnryHarmlessWord") else { return }
    defer { files.remove() }
    guard built else { return }
    let result = files.scan(testCase.file)
    #expect(result.findings.isEmpty, "\(result.findings.map(\.source))")
    #expect(result.source.status == .heard, "\(result.source.status)")
  }
}
