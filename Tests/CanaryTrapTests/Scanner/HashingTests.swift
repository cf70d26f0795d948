import Testing

@testable import CanaryTrap

/// The published test vectors of FIPS 180-4 (SHA-1, SHA-256) and RFC 1321 (MD5).
@Suite struct HashingTests {
  static let message448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
  static let millionA = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)

  func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  @Test func sha256Vectors() {
    #expect(hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      hex(SHA256.digest(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex(SHA256.digest(Array(Self.message448.utf8)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      hex(SHA256.digest(Self.millionA)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func sha1Vectors() {
    #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(hex(SHA1.digest(Array(Self.message448.utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    #expect(hex(SHA1.digest(Self.millionA)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  @Test func md5Vectors() {
    #expect(hex(MD5.digest([])) == "d41d8cd98f00b204e9800998ecf8427e")
    #expect(hex(MD5.digest(Array("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
    #expect(hex(MD5.digest(Array(Self.message448.utf8))) == "8215ef0796a20bcaaae116d3876c664a")
    #expect(hex(MD5.digest(Self.millionA)) == "7707d6ae4e027c70eea2a935c2296f21")
    #expect(
      hex(MD5.digest(Array("The quick brown fox jumps over the lazy dog".utf8)))
        == "9e107d9d372bb6826bd81d3542a419d6")
  }

  @Test func blocksStraddlingThePaddingBoundary() {
    // 55, 56 and 64 bytes: the length field fits, just does not fit, and a whole block.
    #expect(
      hex(SHA256.digest([UInt8](repeating: 0x61, count: 55))).hasPrefix("9f4390f8d30c2dd92ec9f095b65e2b9a"))
    #expect(
      hex(SHA256.digest([UInt8](repeating: 0x61, count: 56))).hasPrefix("b35439a4ac6f0948b6d6f9e3c6af0f5f"))
    #expect(
      hex(SHA256.digest([UInt8](repeating: 0x61, count: 64))).hasPrefix("ffe054fe7ae0cb6dc65c3af9b61d5209"))
  }
}
