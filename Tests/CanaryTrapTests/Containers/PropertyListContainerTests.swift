import Foundation
import Testing

@testable import CanaryTrap

/// Binary property lists made by python's plistlib: ASCII and UTF-16 strings, data, an
/// NSKeyedArchiver-shaped archive and a gzip inside a data object; clean twins clean; corrupt and
/// truncated lists failed.
@Suite struct PropertyListContainerTests {
  private func make(_ files: ContainerFixtures, leak: Bool) throws -> Bool {
    let value = leak ? ContainerFixtures.canary.value : "redacted-value-000000000"
    let script = """
      import plistlib, gzip
      v = '\(value)'
      plistlib.dump({'ascii': 'token=' + v, 'count': 3}, open('ascii.plist', 'wb'), fmt=plistlib.FMT_BINARY)
      plistlib.dump({'utf16': 'caf\\u00e9 ' + v}, open('utf16.plist', 'wb'), fmt=plistlib.FMT_BINARY)
      plistlib.dump({'blob': b'\\x00\\x01' + v.encode()}, open('data.plist', 'wb'), fmt=plistlib.FMT_BINARY)
      plistlib.dump({'gz': gzip.compress(('line\\ntoken=' + v).encode())}, open('gz.plist', 'wb'), fmt=plistlib.FMT_BINARY)
      archive = {'$archiver': 'NSKeyedArchiver', '$version': 100000,
                 '$top': {'root': plistlib.UID(1)},
                 '$objects': ['$null', {'token': plistlib.UID(2), '$class': plistlib.UID(3)}, v,
                              {'$classname': 'Session', '$classes': ['Session', 'NSObject']}]}
      plistlib.dump(archive, open('keyed.plist', 'wb'), fmt=plistlib.FMT_BINARY)
      """
    return try files.python(script)
  }

  @Test(arguments: [false, true])
  func everyKindOfStringIsFound(leak: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try make(files, leak: leak) else { return }
    for name in ["ascii.plist", "utf16.plist", "data.plist", "keyed.plist", "gz.plist"] {
      let result = files.scan(name)
      #expect(result.source.status == .heard, "\(name): \(result.source)")
      let sources = Set(result.findings.filter { $0.encoding == "raw" }.map(\.source))
      if !leak {
        #expect(sources.isEmpty, "\(name)")
      } else if name == "gz.plist" {
        #expect(sources.contains { $0.hasPrefix("gz.plist!/#") && $0.hasSuffix("!") }, "\(sources)")
      } else {
        #expect(sources == ["\(name)!"], "\(name)")
      }
    }
  }

  @Test func corruptAndTruncatedListsFail() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try make(files, leak: false) else { return }
    var data = try Data(contentsOf: files.url("keyed.plist"))
    try files.write("truncated.plist", data.prefix(data.count - 10))
    data[data.count - 1] = 0xFF  // the offset table's offset points past the file
    try files.write("corrupt.plist", data)
    for name in ["truncated.plist", "corrupt.plist"] {
      #expect(files.scan(name).source.status.failureReason != nil, "\(name)")
    }
  }
}
