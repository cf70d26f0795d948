import CanaryTrapPrimitives
import Testing

@testable import CanaryTrapScanner

/// The published test vectors of FIPS 180-4 (SHA-1, SHA-256, SHA-384, SHA-512) and RFC 1321 (MD5).
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

  static let message896 =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

  @Test func sha512Vectors() {
    #expect(
      hex(SHA512.digest([]))
        == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
    )
    #expect(
      hex(SHA512.digest(Array("abc".utf8)))
        == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
    )
    #expect(
      hex(SHA512.digest(Array(Self.message896.utf8)))
        == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
    )
    #expect(
      hex(SHA512.digest(Self.millionA))
        == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
    )
  }

  @Test func sha384Vectors() {
    #expect(
      hex(SHA512.digest384([]))
        == "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b")
    #expect(
      hex(SHA512.digest384(Array("abc".utf8)))
        == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
    #expect(
      hex(SHA512.digest384(Array(Self.message896.utf8)))
        == "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039")
    #expect(
      hex(SHA512.digest384(Self.millionA))
        == "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985")
  }

  @Test func sha512PaddingBoundaries() {
    // 111 and 112 bytes: the length field fits in the last block, or needs one more.
    for count in [111, 112, 127, 128, 239, 240] {
      let message = [UInt8](repeating: 0x61, count: count)
      #expect(SHA512.digest(message).count == 64)
      #expect(SHA512.digest(message) != SHA512.digest(message + [0x61]))
    }
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
