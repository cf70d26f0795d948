/// One way a canary's bytes can be transformed before they reach a sink; a finding names the
/// chain of them it found (see ``EncodingChain``).
package enum ScanEncoding: String, Sendable, CaseIterable, Hashable {
  /// The value's UTF-8 bytes, exactly.
  case raw
  /// The value with ASCII letters in any case.
  case caseInsensitive = "case-insensitive"
  /// Percent-encoded as in a URL (RFC 3986 unreserved set kept), hex digits in any case.
  case percent
  /// `application/x-www-form-urlencoded`: space as `+`, the rest percent-encoded.
  case form
  /// Percent-encoded twice (`%` itself becomes `%25`).
  case doublePercent = "double-percent"
  /// Escaped inside a JSON string: `\/`, `\"`, `\\`, `\uXXXX` (also Go's `\u003c\u003e\u0026`).
  case jsonEscaped = "json-escaped"
  /// HTML or XML character references: named, decimal or hex.
  case htmlEntity = "html-entity"
  /// Quoted-printable (RFC 2045): `=` and bytes outside printable ASCII as `=XX`, hex in any case.
  case quotedPrintable = "quoted-printable"
  /// Standard base64, padded or not, at any of the three byte alignments.
  case base64
  /// URL-safe base64 (`-` and `_`), padded or not, at any of the three byte alignments.
  case base64url
  /// Base32 (RFC 4648, `A`–`Z` and `2`–`7`, any case), padded or not, at any of the five byte
  /// alignments.
  case base32
  /// Hexadecimal bytes, digits in any case.
  case hex
  /// UTF-16 little-endian code units.
  case utf16le
  /// UTF-16 big-endian code units.
  case utf16be
  /// The SHA-256 digest of the value, in hex (any case).
  case sha256Hex = "sha256-hex"
  /// The SHA-256 digest of the value, in base64 or base64url.
  case sha256Base64 = "sha256-base64"
  /// The SHA-512 digest of the value, in hex (any case).
  case sha512Hex = "sha512-hex"
  /// The SHA-512 digest of the value, in base64 or base64url.
  case sha512Base64 = "sha512-base64"
  /// The SHA-384 digest of the value, in hex (any case).
  case sha384Hex = "sha384-hex"
  /// The SHA-384 digest of the value, in base64 or base64url.
  case sha384Base64 = "sha384-base64"
  /// The SHA-1 digest of the value, in hex.
  case sha1Hex = "sha1-hex"
  /// The SHA-1 digest of the value, in base64 or base64url.
  case sha1Base64 = "sha1-base64"
  /// The MD5 digest of the value, in hex.
  case md5Hex = "md5-hex"
  /// The MD5 digest of the value, in base64 or base64url.
  case md5Base64 = "md5-base64"
  /// A run of at least ``ScanOptions/minFragment`` consecutive bytes of the value, in any case.
  case fragment
  /// Bytes a log printed as Foundation describes `Data`: hex in groups of four bytes, as
  /// swift-corelibs-foundation's `<7b227072 6f66696c>` or Apple's
  /// `{length = 59, bytes = 0x7b227072 … 7d7d }` (decoded from the log, not searched forward).
  case nsdataHex = "nsdata-hex"
  /// Bytes printed as a list of decimal numbers, `[123, 34, 112]` (`print(Array(data))`).
  case byteList = "byte-list"
  /// Bytes printed as a list of `0x` numbers, `0x7B, 0x22, 0x70`.
  case hexByteList = "hex-byte-list"
  /// A gzip stream (RFC 1952) found decoded inside the text, such as base64 of gzip.
  case gzip
  /// A zlib stream (RFC 1950) found decoded inside the text.
  case zlib
  /// A raw deflate stream (RFC 1951) found decoded inside the text.
  case deflate
  /// A zip archive found decoded inside the text (base64 of a zip), its deflated members opened.
  case zip
  /// A bzip2 stream found decoded inside the text, such as base64 of `bzip2` output.
  case bzip2
  /// Apple's LZ4 framing (`bv41` blocks, as the Compression framework writes them) found decoded
  /// inside the text.
  case lz4
  /// An LZFSE stream (`bvx2` blocks) found decoded inside the text, opened where the Compression
  /// framework is; elsewhere it makes the source inconclusive.
  case lzfse
  /// Bytes a log printed as a hex dump of offsets, hex groups and text, as `xxd`, `hexdump -C`,
  /// `od` and SwiftNIO's `hexDump(format: .detailed)` write one, its lines read as one run of bytes.
  case hexDump = "hex-dump"
  /// Bytes a log printed with backslash escapes, `b'\x1f\x8b\x08…'`, as Python, Rust, Go, Ruby
  /// and nginx print them (decoded from the log, not searched forward).
  case hexEscaped = "hex-escaped"
}

extension ScanEncoding {
  /// The position of the encoding in ``allCases``.
  var ordinal: Int {
    switch self {
    case .raw: 0
    case .caseInsensitive: 1
    case .percent: 2
    case .form: 3
    case .doublePercent: 4
    case .jsonEscaped: 5
    case .htmlEntity: 6
    case .quotedPrintable: 7
    case .base64: 8
    case .base64url: 9
    case .base32: 10
    case .hex: 11
    case .utf16le: 12
    case .utf16be: 13
    case .sha256Hex: 14
    case .sha256Base64: 15
    case .sha512Hex: 16
    case .sha512Base64: 17
    case .sha384Hex: 18
    case .sha384Base64: 19
    case .sha1Hex: 20
    case .sha1Base64: 21
    case .md5Hex: 22
    case .md5Base64: 23
    case .fragment: 24
    case .nsdataHex: 25
    case .byteList: 26
    case .hexByteList: 27
    case .gzip: 28
    case .zlib: 29
    case .deflate: 30
    case .zip: 31
    case .bzip2: 32
    case .lz4: 33
    case .lzfse: 34
    case .hexDump: 35
    case .hexEscaped: 36
    }
  }

  /// Whether the encoding is only found by decoding what the text shows (see ``DecodingPass``),
  /// never searched as a literal: Foundation's `Data` descriptions, byte lists, hex dumps,
  /// compressed streams.
  var isDecodedOnly: Bool {
    switch self {
    case .nsdataHex, .byteList, .hexByteList, .hexDump, .hexEscaped, .gzip, .zlib, .deflate, .zip, .bzip2,
      .lz4,
      .lzfse:
      true
    default: false
    }
  }

  /// The compressed payloads opened when found decoded inside the text (base64 of gzip, say).
  static let compressedPayloads: Set<ScanEncoding> = [.gzip, .zlib, .deflate, .zip, .bzip2, .lz4, .lzfse]

  /// Hashes the case, not its name: sets of encodings are looked up for every literal of every
  /// canary a scanner compiles.
  package func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }
}
