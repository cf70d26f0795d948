import CanaryTrapPrimitives
import Foundation

/// Opens a compressed payload found decoded in the text: gzip (`1f 8b 08`), zlib (a header zlib
/// writes), a zip archive (`PK 03 04`, its deflated members), bzip2 (`BZh`), Apple's LZ4 framing
/// (`bv41`), LZFSE (`bvx2`, where the Compression framework is) or, for anything else that is not
/// text, raw deflate. The output is held in memory (at most ``DecodingLimits/maxPayloadBytes``)
/// and counted against the pass's budget.
///
/// A payload that turns out corrupt or cut short still yields what it decoded; raw deflate,
/// which has no header to recognize, only counts when its final block ends. A zip member that
/// cannot be read (encrypted, or another method than stored and deflate) and a payload in a
/// format the scanner recognizes but does not open (xz, zstd, an LZ4 frame, 7z, RAR, and LZFSE
/// without the Compression framework) are errors: the source is inconclusive.
final class CompressedPayload {
  /// Thrown when a limit stops decoding: the source is inconclusive.
  struct LimitReached: Error, CustomStringConvertible {
    var description: String
  }

  /// Thrown for a zip member found decoded in the text that cannot be read: the source is
  /// inconclusive.
  struct UnreadableMember: Error, CustomStringConvertible {
    var description: String
  }

  /// Counts decoded bytes against the per-source budget and one payload's limit.
  final class Budget: DecodingBudget {
    var used = 0
    /// The bytes left to decode: the source's limit less what other parts decoded.
    var limit: Int
    /// The source's limit, named when it is passed.
    let sourceLimit: Int
    var payload = 0
    var payloadLimit: Int

    init(limit: Int, payloadLimit: Int) {
      self.limit = limit
      sourceLimit = limit
      self.payloadLimit = payloadLimit
    }

    func expand(_ count: Int) throws {
      used += count
      payload += count
      if payload > payloadLimit {
        throw LimitReached(
          description:
            "a compressed payload in the text expands past \(payloadLimit) bytes (DecodingLimits.maxPayloadBytes)"
        )
      }
      if used > limit {
        throw LimitReached(
          description: "more than \(sourceLimit) bytes decoded from the text (DecodingLimits.maxDecodedBytes)"
        )
      }
    }
  }

  /// The payload a reused reader reads (raw deflate is tried on many non-text base64 runs).
  private final class Swappable: ByteSource {
    var bytes: [UInt8] = []
    var position = 0
    func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
      let taken = min(count, bytes.count - position)
      guard taken > 0 else { return 0 }
      bytes.withUnsafeBufferPointer { pointer.update(from: $0.baseAddress! + position, count: taken) }
      position += taken
      return taken
    }
  }

  private let budget: Budget
  private lazy var source = Swappable()
  private lazy var reader = ByteReader(source)
  private lazy var inflater = Inflater(reader: reader)

  init(budget: Budget) { self.budget = budget }

  /// Whether decoded bytes starting with `head` may be a compressed stream: gzip, zlib, zip, one
  /// of the ``HeaderedFormat``s, or raw deflate (see ``mayStartRawDeflate(_:)``). `head` holds
  /// the first 12 decoded bytes or all.
  static func mayStart(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
    startsWithHeader(head) || mayStartRawDeflate(head)
  }

  /// Whether decoded bytes starting with `head` begin with a compressed stream's header: gzip,
  /// zlib, zip or one of the ``HeaderedFormat``s (raw deflate has none).
  static func startsWithHeader(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
    guard head.count >= 3 else { return false }
    if head[0] == 0x1F && head[1] == 0x8B && head[2] == 0x08 { return true }
    if isZlibHeader(head[0], head[1]) { return true }
    if head.count >= 4 && isZipHeader(head[0], head[1], head[2], head[3]) { return true }
    return HeaderedFormat(head) != nil
  }

  /// Whether a payload whose first two bytes are `first` and `second` may pass
  /// ``startsWithHeader(_:)``.
  @inline(__always)
  static func mayStartWithHeader(first: UInt8, second: UInt8) -> Bool {
    first == 0x1F && second == 0x8B || isZlibHeader(first, second) || first == 0x50 && second == 0x4B
      || HeaderedFormat.mayBeSignature(first, second)
  }

  static func isZlibHeader(_ first: UInt8, _ second: UInt8) -> Bool {
    first & 0x0F == 8 && first >> 4 <= 7 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
      && second & 0x20 == 0
  }

  /// Whether four bytes are a zip local file header's signature, `PK 03 04`.
  static func isZipHeader(_ first: UInt8, _ second: UInt8, _ third: UInt8, _ fourth: UInt8) -> Bool {
    first == 0x50 && second == 0x4B && third == 0x03 && fourth == 0x04
  }

  /// Whether binary bytes may begin a raw deflate stream of text, tested without decoding: a
  /// block of fixed codes whose first two symbols are text (a literal of a tab, a line break or
  /// printable ASCII; the second may also be a length), or a block of dynamic codes whose
  /// code-length code is complete, as every deflater writes it. Most random bytes (a token, a
  /// digest in base64) fail it, so raw deflate is rarely tried in vain.
  static func mayStartRawDeflate(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
    guard head.count >= 4 else { return false }
    // Text of its own (base64 of JSON, a JWT's segments) is not tried: its first 12 bytes are text.
    // Three bytes were once enough to say so, and one deflate stream in about twenty begins
    // with three printable bytes (a SAML request was then never opened).
    let isText = head.prefix(12).allSatisfy {
      $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 < 0x7F)
    }
    guard !isText else { return false }
    var bits = BitPeek(head)
    _ = bits.take(1)
    switch bits.take(2) {
    case 1:
      guard let first = bits.fixedSymbol(), isTextLiteral(first) else { return false }
      guard let second = bits.fixedSymbol() else { return true }
      return isTextLiteral(second) || (second >= 257 && second <= 285)
    case 2:
      guard dynamicCountsFit(&bits) else { return false }
      let codeLengths = Int(bits.take(4)) + 4
      guard head.count * 8 >= 17 + 3 * codeLengths else { return true }
      var kraft = 0
      for _ in 0..<codeLengths {
        let length = bits.take(3)
        if length > 0 { kraft += 128 >> length }
      }
      return kraft == 128
    default: return false
    }
  }

  /// Whether a dynamic block's counts of length and distance codes (read from `bits`) are
  /// within deflate's limits.
  private static func dynamicCountsFit(_ bits: inout BitPeek) -> Bool {
    let lengthCount = bits.take(5)
    let distanceCount = bits.take(5)
    return lengthCount <= 29 && distanceCount <= 29
  }

  /// Whether a payload whose first two bytes are `first` and `second` may pass ``mayStart(_:)``:
  /// the part of its tests those two bytes decide, so that a payload failing it is not decoded
  /// further. Read from ``startPairs``.
  @inline(__always)
  static func mayStart(first: UInt8, second: UInt8) -> Bool {
    let pair = Int(first) << 8 | Int(second)
    return startPairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0
  }

  /// One bit per pair of first bytes, set when ``mayStart(_:)`` may hold for a payload starting
  /// with them: gzip's and zip's signatures, a zlib header, the first bytes of a
  /// ``HeaderedFormat``'s signature, or a raw deflate block whose first symbol (fixed codes) or
  /// whose code counts (dynamic codes) pass ``mayStartRawDeflate(_:)``.
  private static let startPairs: [UInt64] = {
    // Raw deflate's tests read the second byte's low 5 bits only: read once for each.
    let deflate = (0..<(1 << 13)).map { rawDeflateMayStart(first: UInt8($0 >> 5), second: UInt8($0 & 31)) }
    var words = [UInt64](repeating: 0, count: 1 << 10)
    for pair in 0..<(1 << 16) {
      let first = UInt8(pair >> 8)
      let second = UInt8(pair & 0xFF)
      if mayStartWithHeader(first: first, second: second) || deflate[Int(first) << 5 | Int(second & 31)] {
        words[pair >> 6] |= 1 << UInt64(pair & 63)
      }
    }
    return words
  }()

  /// The tests of ``mayStartRawDeflate(_:)`` that the first two bytes decide: the block type,
  /// then the first fixed symbol (it ends by bit 12) or the dynamic code counts (bits 3 to 12).
  private static func rawDeflateMayStart(first: UInt8, second: UInt8) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { head in
      head.initialize(repeating: 0)
      head[0] = first
      head[1] = second
      var bits = BitPeek(UnsafeBufferPointer(head))
      _ = bits.take(1)
      switch bits.take(2) {
      case 1: return bits.fixedSymbol().map(isTextLiteral) ?? false
      case 2: return dynamicCountsFit(&bits)
      default: return false
      }
    }
  }

  private static func isTextLiteral(_ symbol: Int) -> Bool {
    symbol == 0x09 || symbol == 0x0A || symbol == 0x0D || (symbol >= 0x20 && symbol < 0x7F)
  }

  /// Reads bits least significant first, as deflate packs them.
  private struct BitPeek {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func take(_ count: Int) -> UInt32 {
      var value: UInt32 = 0
      for index in 0..<count {
        let bit = position < bytes.count * 8 ? (bytes[position >> 3] >> (position & 7)) & 1 : 0
        value |= UInt32(bit) << index
        position += 1
      }
      return value
    }

    /// The next symbol of the fixed literal/length code, or `nil` past the bytes held.
    mutating func fixedSymbol() -> Int? {
      guard position + 9 <= bytes.count * 8 else { return nil }
      var code = 0
      for length in 1...9 {
        code = code << 1 | Int(take(1))
        switch length {
        case 7 where code <= 0x17: return 256 + code
        case 8 where code >= 0x30 && code <= 0xBF: return code - 0x30
        case 8 where code >= 0xC0 && code <= 0xC7: return 280 + code - 0xC0
        case 9 where code >= 0x190: return 144 + code - 0x190
        default: continue
        }
      }
      return nil
    }
  }

  /// The payload's decoded bytes and what it was, or `nil` when it is none of the four.
  /// Throws ``LimitReached`` when a limit stops it, ``UnreadableMember`` for a zip member it
  /// cannot read.
  func open(_ bytes: [UInt8]) throws -> (ScanEncoding, [UInt8])? {
    guard bytes.count >= 3 else { return nil }
    budget.payload = 0
    if bytes[0] == 0x1F && bytes[1] == 0x8B && bytes[2] == 0x08 {
      let reader = ByteReader(DataSource(Data(bytes)))
      return (.gzip, try drain(GzipSource(reader, budget: budget)))
    }
    if Self.isZlibHeader(bytes[0], bytes[1]) {
      let reader = ByteReader(DataSource(Data(bytes)))
      return (.zlib, try drain(ZlibSource(reader, budget: budget)))
    }
    if bytes.count >= 4 && Self.isZipHeader(bytes[0], bytes[1], bytes[2], bytes[3]) {
      let members = try openZip(bytes)
      return members.isEmpty ? nil : (.zip, members)
    }
    if let format = bytes.withUnsafeBufferPointer({
      HeaderedFormat(UnsafeBufferPointer(rebasing: $0.prefix(12)))
    }) {
      let reader = ByteReader(DataSource(Data(bytes)))
      switch format {
      case .bzip2: return (.bzip2, try drain(Bzip2Source(reader, budget: budget)))
      case .lz4: return (.lz4, try drain(AppleLZ4Source(reader, budget: budget)))
      case .lzfse:
        #if canImport(Compression)
          return (.lzfse, try drain(LZFSESource(reader, budget: budget)))
        #else
          throw UnreadableMember(description: HeaderedFormat.failure(.lzfse))
        #endif
      case .unopened(let unopened): throw UnreadableMember(description: HeaderedFormat.failure(unopened))
      }
    }
    guard bytes.withUnsafeBufferPointer(Self.mayStartRawDeflate) else { return nil }
    let (output, _, ended) = try inflate(bytes, from: 0)
    return ended && !output.isEmpty ? (.deflate, output) : nil
  }

  /// Inflates the raw deflate stream at `bytes[start...]`: what it decoded, how many bytes it
  /// read, and whether its final block ended (not when the stream is corrupt or cut short).
  private func inflate(_ bytes: [UInt8], from start: Int) throws -> (output: [UInt8], read: Int, ended: Bool)
  {
    source.bytes = bytes
    source.position = start
    reader.reset()
    inflater.reset()
    var output: [UInt8] = []
    do {
      while true {
        let chunk = try inflater.next()
        if chunk.isEmpty { break }
        try budget.expand(chunk.count)
        output.append(contentsOf: chunk)
      }
    } catch let error as LimitReached {
      throw error
    } catch {
      return (output, reader.offset, false)
    }
    return (output, reader.offset, inflater.isDone)
  }

  /// The deflated members of the zip archive in `bytes`, read front to back by their local
  /// headers, each inflated and followed by a line feed. A stored member is not copied: its
  /// bytes are the payload's own, which the forward literals find in its base64. Stops at the
  /// central directory, or where the archive is cut short or corrupt.
  private func openZip(_ bytes: [UInt8]) throws -> [UInt8] {
    var output: [UInt8] = []
    var offset = 0
    while offset + 30 <= bytes.count, Self.isZipHeader(at: offset, in: bytes) {
      let flags = LittleEndian.le16(bytes, offset + 6)
      let method = LittleEndian.le16(bytes, offset + 8)
      let storedSize = LittleEndian.le32(bytes, offset + 18)
      let data = offset + 30 + LittleEndian.le16(bytes, offset + 26) + LittleEndian.le16(bytes, offset + 28)
      let hasDescriptor = flags & 0x08 != 0
      guard flags & 0x01 == 0, method == 0 || method == 8 else {
        let problem = flags & 0x01 != 0 ? "is encrypted" : "is compressed with method \(method)"
        throw UnreadableMember(
          description: "a member of a zip archive decoded from the text \(problem): its bytes were not read")
      }
      var end: Int
      if method == 8 {
        let (inflated, read, ended) = try inflate(bytes, from: data)
        output += inflated
        output.append(0x0A)
        guard ended else { break }
        end = data + read
      } else {
        // A stored member with a data descriptor has no size to skip by.
        guard !hasDescriptor, storedSize != 0xFFFF_FFFF else { break }
        end = data + storedSize
      }
      guard hasDescriptor else {
        offset = end
        continue
      }
      // The descriptor: an optional signature, a CRC-32 and two 32-bit or 64-bit sizes.
      guard
        let next = [12, 16, 20, 24].first(where: { length in
          Self.isZipHeader(at: end + length, in: bytes)
        })
      else { break }
      offset = end + next
    }
    return output
  }

  /// Whether a zip local header starts at `offset` of `bytes`.
  private static func isZipHeader(at offset: Int, in bytes: [UInt8]) -> Bool {
    offset + 4 <= bytes.count
      && Self.isZipHeader(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
  }

  /// Everything `source` decodes before its end or an error; a limit's error is thrown.
  private func drain(_ source: DecodedSource) throws -> [UInt8] {
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      do {
        let read = try chunk.withUnsafeMutableBufferPointer {
          try source.read(into: $0.baseAddress!, count: $0.count)
        }
        if read == 0 { break }
        output.append(contentsOf: chunk[0..<read])
      } catch let error as LimitReached {
        throw error
      } catch {
        break
      }
    }
    return output
  }
}
