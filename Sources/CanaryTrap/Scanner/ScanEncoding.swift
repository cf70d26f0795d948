/// One way a canary's bytes can be transformed before they reach a sink; a finding names the
/// chain of them it found (see ``EncodingChain``).
public enum ScanEncoding: String, Sendable, CaseIterable, Hashable {
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
}
