/// Every canary's value laid out for verification: case-folded, as written, and which of its
/// bytes identify the canary, back to back.
///
/// Values are verified from here, never rebuilt: text many canaries share (the
/// `@example.invalid` of every email canary) hits thousands of values at once.
final class ValueStore: @unchecked Sendable {
  /// Per canary: where its folded bytes start in ``bytes``; its length is a third of the span
  /// to the next canary's start (folded bytes, then as written, then identifying flags).
  private let starts: UnsafeMutablePointer<Int>
  private let canaryCount: Int
  /// Every value's folded bytes, bytes as written, and flags (1 for an identifying byte).
  let bytes: UnsafeMutablePointer<UInt8>
  let byteCount: Int

  /// The values as a ``Builder`` collected them.
  init(_ builder: Builder) {
    canaryCount = builder.starts.count
    byteCount = builder.bytes.count
    starts = .allocate(capacity: canaryCount + 1)
    for (canary, start) in builder.starts.enumerated() { (starts + canary).initialize(to: start) }
    starts[canaryCount] = byteCount
    bytes = .allocate(capacity: byteCount + 8)
    bytes.initialize(repeating: 0, count: byteCount + 8)
    builder.bytes.withUnsafeBufferPointer {
      if let base = $0.baseAddress { bytes.update(from: base, count: byteCount) }
    }
  }

  /// Collects the values canary by canary.
  struct Builder {
    fileprivate var starts: [Int] = []
    fileprivate var bytes: [UInt8] = []

    /// Appends the next canary's value, given its running counts of identifying bytes
    /// (``DistinctiveBytes/prefixCounts(of:shape:)``); an empty value when it is not searched.
    mutating func append(_ value: UnsafeBufferPointer<UInt8>, counts: ArraySlice<Int32>) {
      starts.append(bytes.count)
      bytes += value.lazy.map { ByteFold.table[Int($0)] }
      bytes += value
      let first = counts.startIndex
      bytes += value.indices.lazy.map { counts[first + $0 + 1] > counts[first + $0] ? 1 : 0 }
    }

    /// Appends the values `other` collected, after these.
    mutating func append(contentsOf other: Builder) {
      starts += other.starts.lazy.map { $0 + bytes.count }
      bytes += other.bytes
    }
  }

  deinit {
    starts.deallocate()
    bytes.deallocate()
  }

  /// The length of canary `canary`'s value (0 when it is not searched).
  @inline(__always)
  func length(_ canary: Int) -> Int { (starts[canary + 1] - starts[canary]) / 3 }

  /// The folded bytes of canary `canary`'s value; the bytes as written follow at `+ length`.
  @inline(__always)
  func folded(_ canary: Int) -> UnsafePointer<UInt8> { UnsafePointer(bytes + starts[canary]) }

  /// How many bytes of canary `canary`'s value in `low..<high` identify it.
  func identifyingBytes(_ canary: Int, from low: Int, to high: Int) -> Int {
    let flags = bytes + starts[canary] + 2 * length(canary)
    var count = 0
    for index in low..<high { count += Int(flags[index]) }
    return count
  }

  /// Bytes the store keeps in memory.
  var memoryFootprint: Int { byteCount + 8 + (canaryCount + 1) * MemoryLayout<Int>.stride }
}
