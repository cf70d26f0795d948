import Foundation
import Testing

@testable import CanaryTrap

/// Exercises the redirection on a descriptor of its own (a temp file), so restoring and echoing
/// can be checked exactly without racing the other tests for fd 1 and 2.
@Suite struct StreamRedirectionTests {
  @Test func bytesAreCapturedEchoedAndTheDescriptorRestored() throws {
    let directory = try SinkTestSupport.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fileURL = directory.appendingPathComponent("stream.txt")
    #expect(FileManager.default.createFile(atPath: fileURL.path, contents: nil))
    let handle = try FileHandle(forWritingTo: fileURL)
    defer { try? handle.close() }
    let descriptor = handle.fileDescriptor

    let buffer = StreamBuffer()
    buffer.openWindow(1)
    let redirection = try StreamRedirection.install(descriptor: descriptor, into: buffer)
    let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    handle.write(payload)
    #expect(redirection.waitUntilDrained(timeout: 10))
    #expect(buffer.bytes(inWindow: 1) == payload)
    redirection.restore(timeout: 10)
    handle.write(Data("after restore".utf8))

    var expected = payload
    expected.append(Data("after restore".utf8))
    #expect(try Data(contentsOf: fileURL) == expected)  // echoed byte for byte, then direct
    #expect(buffer.bytes(inWindow: 1) == payload)  // nothing captured after the restore
  }

  @Test func bytesNoWindowNeedsAreDropped() {
    let buffer = StreamBuffer()
    buffer.openWindow(1)
    _ = Data("first".utf8).withUnsafeBytes {
      buffer.beginRead(); return buffer.finishRead($0)
    }
    buffer.openWindow(2)
    _ = Data("second".utf8).withUnsafeBytes {
      buffer.beginRead(); return buffer.finishRead($0)
    }
    #expect(buffer.bytes(inWindow: 1) == Data("firstsecond".utf8))
    #expect(buffer.bytes(inWindow: 2) == Data("second".utf8))
    buffer.closeWindow(1)
    #expect(buffer.bytes(inWindow: 2) == Data("second".utf8))
    #expect(buffer.bytes(inWindow: 1) == nil)
    buffer.closeWindow(2)
    #expect(buffer.endOffset == 11)
    buffer.openWindow(3)
    #expect(buffer.bytes(inWindow: 3) == Data())
  }
}
