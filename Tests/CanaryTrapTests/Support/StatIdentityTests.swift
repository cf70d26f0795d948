import Foundation
import Testing

@testable import CanaryTrap

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stat` device and inode numbers become keys without trapping on Darwin's signed `dev_t`.
@Suite("StatIdentity")
struct StatIdentityTests {
  @Test func aNegativeSigned32BitDeviceBecomesAKeyInsteadOfTrapping() {
    // Darwin's dev_t is Int32; UInt64(Int32(-1)) would trap.
    #expect(StatIdentity.key(Int32(-1)) == UInt64.max)
    #expect(StatIdentity.key(Int32.min) == UInt64(bitPattern: Int64(Int32.min)))
  }

  @Test func distinctDevicesStayDistinct() {
    let values: [Int32] = [Int32.min, -2, -1, 0, 1, Int32.max]
    #expect(Set(values.map { StatIdentity.key($0) }).count == values.count)
  }

  @Test func unsignedFieldsKeepTheirValue() {
    #expect(StatIdentity.key(UInt64.max) == UInt64.max)
    #expect(StatIdentity.key(UInt32(42)) == 42)
  }

  @Test func aRealFilesDeviceMatchesFileIdentity() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stat-identity-\(UUID().uuidString)"
    ).path
    #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    var info = stat()
    #expect(stat(path, &info) == 0)
    let identity = try #require(FileIdentity(path: path))
    #expect(StatIdentity.key(info.st_dev) == identity.device)
    #expect(StatIdentity.key(info.st_ino) == identity.inode)
  }
}
