import Foundation

/// Fuzz targets `gzip`, `zlib`, `bzip2`, `lz4`, `zip`, `tar`, `sqlite`, `wal` and `bplist`: feeds the bytes to one container reader through
/// the container scanner (the gzip and zlib magic bytes are forced, a tar header's checksum is
/// fixed, so mutations stay inside the format) with small limits. Checks: no crash, no hang, the
/// scan stays within its limits, and a source that failed says why.
func fuzzContainer(_ kind: ContainerKind) -> ([UInt8]) -> Void {
  { input in
    var bytes = input
    switch kind {
    case .gzip:
      if bytes.count >= 3 { bytes.replaceSubrange(0..<3, with: [0x1F, 0x8B, 0x08]) }
    case .zlib:
      if bytes.count >= 2 { bytes.replaceSubrange(0..<2, with: [0x78, 0x9C]) }
    case .bzip2:
      if bytes.count >= 10 {
        bytes.replaceSubrange(0..<10, with: Array("BZh9".utf8) + [0x31, 0x41, 0x59, 0x26, 0x53, 0x59])
      }
    case .appleLZ4:
      if bytes.count >= 4 { bytes.replaceSubrange(0..<4, with: Array("bv41".utf8)) }
    case .zip:
      if bytes.count >= 4 { bytes.replaceSubrange(0..<4, with: [0x50, 0x4B, 0x03, 0x04]) }
    case .tar:
      if bytes.count >= 512 {
        bytes.replaceSubrange(148..<156, with: Array("        ".utf8))
        let sum = bytes[0..<512].reduce(0) { $0 + Int($1) }
        bytes.replaceSubrange(148..<156, with: Array(String(format: "%06o\0 ", sum).utf8))
        if bytes[0] == 0 { bytes[0] = 0x61 }
      }
    case .sqlite:
      if bytes.count >= 16 { bytes.replaceSubrange(0..<16, with: Array("SQLite format 3\0".utf8)) }
    case .sqliteWAL:
      if bytes.count >= 4 { bytes.replaceSubrange(0..<4, with: [0x37, 0x7F, 0x06, 0x82]) }
    case .binaryPropertyList:
      if bytes.count >= 8 { bytes.replaceSubrange(0..<8, with: Array("bplist00".utf8)) }
    case .plain, .unopened, .lzfse: break
    }
    var options = ScanOptions()
    let limits = ContainerLimits(
      maxExpandedBytes: 8 << 20, ratioFloor: 1 << 20, maxDepth: 4, maxMembers: 1000)
    options.containerLimits = limits
    let scanner = LeakScanner(
      canaries: [Canary(value: "cnryFuzzContainer42", location: .custom("fuzz"))], options: options)
    let data = Data(bytes)
    let result = scanner.scan(.bytes(data, name: "fuzz"))
    fuzzCheck(
      result.source.bytes <= limits.maxExpandedBytes + data.count + (1 << 20), "scanned past the limits")
    if case .failed(let reason) = result.source.status {
      fuzzCheck(!reason.isEmpty, "a failure without a reason")
    }
    for finding in result.findings {
      fuzzCheck(finding.source.hasPrefix("fuzz"), "a finding named outside the source: \(finding.source)")
    }
  }
}
