import CanaryTrapPrimitives
import Foundation

/// A `Content-Encoding` the loopback server can compress a response body with, so the app's
/// transport has to decode it before the app (and the delivery proof) sees the canaries.
public enum ContentCoding: String, Sendable, CaseIterable {
  /// `gzip` (RFC 1952): a gzip member around a DEFLATE stream.
  case gzip
  /// `deflate` (RFC 9110 §8.4.1.2): a zlib stream (RFC 1950), as HTTP means it.
  case deflate

  /// The largest body ``ServerResponse/encoded(_:limit:)`` compresses by default (16 MiB).
  public static let defaultLimit = 16 * 1024 * 1024

  /// Why a body could not be encoded.
  package struct TooLarge: Error, CustomStringConvertible, Equatable {
    /// The size of the body that was refused.
    package var bytes: Int
    /// The limit it passed.
    package var limit: Int
    /// Says what was refused and why.
    package var description: String {
      "a body of \(bytes) bytes is over the \(limit)-byte limit for compressed responses"
    }
  }

  /// The compressed form of `body`; throws `TooLarge` when it holds more than `limit` bytes.
  package func encode(_ body: Data, limit: Int = ContentCoding.defaultLimit) throws -> Data {
    guard body.count <= limit else { throw TooLarge(bytes: body.count, limit: limit) }
    let input = [UInt8](body)
    var output: [UInt8]
    switch self {
    case .gzip:
      // Magic, CM=8, no flags, no mtime, XFL=0, OS=255 (unknown): stable bytes for the same body.
      output = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
      output += DeflateEncoder.deflate(input)
      var crc = CRC32()
      input.withUnsafeBufferPointer { if let base = $0.baseAddress { crc.update(base, count: $0.count) } }
      output += littleEndian(crc.value) + littleEndian(UInt32(truncatingIfNeeded: input.count))
    case .deflate:
      output = [0x78, 0x01]  // CM=8, 32 KiB window, no dictionary, fastest level; FCHECK valid
      output += DeflateEncoder.deflate(input)
      var adler = Adler32()
      input.withUnsafeBufferPointer { if let base = $0.baseAddress { adler.update(base, count: $0.count) } }
      output += littleEndian(adler.value).reversed()
    }
    return Data(output)
  }

  private func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }
}

extension ServerResponse {
  /// A copy whose body is compressed with `coding` and labelled with `Content-Encoding`; a chunked
  /// body stays chunked, the compressed bytes cut into as many chunks of similar size.
  ///
  /// Throws `ContentCoding.TooLarge` when the body holds more than `limit` bytes.
  public func encoded(_ coding: ContentCoding, limit: Int = ContentCoding.defaultLimit) throws
    -> ServerResponse
  {
    var copy = self
    let compressed = try coding.encode(body.data, limit: limit)
    switch body {
    case .fixed: copy.body = .fixed(compressed)
    case .chunked(let chunks):
      let count = max(1, chunks.filter { !$0.isEmpty }.count)
      let size = max(1, (compressed.count + count - 1) / count)
      copy.body = .chunked(
        stride(from: 0, to: compressed.count, by: size).map {
          compressed.subdata(in: $0..<min(compressed.count, $0 + size))
        })
    }
    copy.headers.remove("Content-Encoding")
    copy.headers.add("Content-Encoding", coding.rawValue)
    return copy
  }
}
