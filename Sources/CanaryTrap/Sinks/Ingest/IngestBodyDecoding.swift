import CanaryTrapPrimitives
import Foundation

/// An upload's body with its `Content-Encoding` undone: gzip, deflate (zlib or raw) and identity,
/// in the reverse of the order they were applied, each within a budget of decoded bytes.
enum IngestBodyDecoding {
  /// What decoding gave: the bytes to scan, and why they are not the whole body when they are not.
  struct Outcome {
    /// The decoded body, or the body as received when it could not be decoded.
    var bytes: Data
    /// Why the body could not be opened (an unknown coding, a corrupt stream, the budget), or nil.
    var problem: String?
  }

  /// Decodes `body` sent with the `Content-Encoding` values `codings` (header order), producing
  /// at most `maxBytes` bytes.
  static func decode(_ body: Data, codings: [String], maxBytes: Int) -> Outcome {
    let names = codings.flatMap { $0.split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      .filter { !$0.isEmpty && $0 != "identity" }
    var bytes = body
    for name in names.reversed() {
      do {
        switch name {
        case "gzip", "x-gzip":
          bytes = try inflate(bytes, maxBytes: maxBytes) { GzipSource($0, budget: $1) }
        case "deflate":
          bytes =
            isZlibHeader(bytes)
            ? try inflate(bytes, maxBytes: maxBytes) { ZlibSource($0, budget: $1) }
            : try inflate(bytes, maxBytes: maxBytes) { DeflateMemberSource($0, budget: $1) }
        default:
          return Outcome(
            bytes: bytes,
            problem: "its Content-Encoding \(name) cannot be opened, so its body was not scanned")
        }
      } catch {
        return Outcome(bytes: body, problem: "its \(name) body could not be decoded (\(error))")
      }
    }
    return Outcome(bytes: bytes, problem: nil)
  }

  /// Whether `bytes` start with a zlib header (RFC 1950: deflate method, header check): what
  /// HTTP's `deflate` means, though some clients send raw deflate under that name.
  static func isZlibHeader(_ bytes: Data) -> Bool {
    guard bytes.count >= 2 else { return false }
    let cmf = bytes[bytes.startIndex]
    let flg = bytes[bytes.startIndex + 1]
    return cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
  }

  /// Every byte `make` decodes from `bytes`, throwing past `maxBytes`.
  private static func inflate(
    _ bytes: Data, maxBytes: Int, _ make: (ByteReader, any DecodingBudget) -> any ByteSource
  ) throws -> Data {
    let budget = IngestDecodingBudget(limit: maxBytes)
    let source = make(ByteReader(DataSource(bytes)), budget)
    var output = Data()
    let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
    defer { chunk.deallocate() }
    while true {
      let count = try source.read(into: chunk, count: 1 << 16)
      if count == 0 { return output }
      output.append(chunk, count: count)
    }
  }
}

/// Stops a decompression bomb: throws once more than `limit` bytes were decoded.
final class IngestDecodingBudget: DecodingBudget {
  private let limit: Int
  private var used = 0

  init(limit: Int) { self.limit = limit }

  func expand(_ count: Int) throws {
    used += count
    if used > limit {
      throw ContainerError.overLimit(
        "it decodes to more than the \(limit) bytes left of the sink's maxDecodedBytes")
    }
  }
}
