import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

/// A binary property list whose offset table names one large object many times (issue 37): each
/// reference counts against the expansion limits, so the scan stops at the ratio limit (a failed,
/// inconclusive source) instead of reading the object thousands of times.
@Suite struct PropertyListRepeatTests {
  /// Writes `list.plist`: one data object of `size` bytes (starting with `head`), named
  /// `references` times by the offset table.
  private func make(_ files: ContainerFixtures, head: String, size: Int, references: Int) throws -> Bool {
    guard ContainerFixtures.locate("python3") != nil else {
      DidNotRun.record("python3 is not installed")
      return false
    }
    return try files.python(
      """
      import struct
      head = b'\(head)'
      data = head + b'.' * (\(size) - len(head))
      body = b'bplist00' + bytes([0x4F, 0x12]) + struct.pack('>I', len(data)) + data
      table = struct.pack('>I', 8) * \(references)
      trailer = bytes(6) + bytes([4, 4]) + struct.pack('>QQQ', \(references), 0, len(body))
      open('list.plist', 'wb').write(body + table + trailer)
      """)
  }

  static let limits = ContainerLimits(maxExpansionRatio: 100, ratioFloor: 1 << 20)

  @Test func anObjectNamedThousandsOfTimesStopsAtTheRatioLimit() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try make(files, head: "token=none", size: 64 << 10, references: 4096) else { return }
    let started = ContinuousClock.now
    let result = files.scan("list.plist", limits: Self.limits)
    guard case .failed(let reason) = result.source.status else {
      Issue.record("scanned 4,096 times 64 KiB as clean: \(result.source.status)")
      return
    }
    #expect(reason.contains("ContainerLimits.maxExpansionRatio"), "\(reason)")
    #expect(ContinuousClock.now - started < .seconds(20))
  }

  @Test func aCanaryInTheRepeatedObjectIsStillFound() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try make(files, head: "token=\(ContainerFixtures.canary.value)", size: 64 << 10, references: 4096)
    else { return }
    let result = files.scan("list.plist", limits: Self.limits)
    #expect(result.findings.map(\.source).contains("list.plist!"), "\(result.findings.map(\.source))")
  }

  @Test func aListThatNamesEachObjectOnceIsWithinTheLimits() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try make(files, head: "token=none", size: 64 << 10, references: 1) else { return }
    let result = files.scan("list.plist", limits: Self.limits)
    #expect(result.source.status == .heard, "\(result.source.status)")
  }
}
