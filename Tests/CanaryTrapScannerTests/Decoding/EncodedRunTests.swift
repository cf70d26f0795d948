import Testing

@testable import CanaryTrapScanner

/// `EncodedRun.next`, which widens a block 8 bytes at a time where it can, finds the runs a
/// byte-by-byte reading finds: the same bounds, kind and hex-ness, on text built to hold runs of
/// every class touching each other, the search's bounds and words at every offset.
@Suite struct EncodedRunTests {
  /// The byte-by-byte reading: the first block of 16 bytes sharing a class at or after `from`,
  /// each class's run widened around it a byte at a time, the longer reading kept (numeric on a
  /// tie).
  static func reference(_ text: [UInt8], from: Int, lower: Int, end: Int) -> EncodedRun? {
    let classes = EncodedRun.classes
    var index = from
    while index + EncodedRun.blockLength <= end {
      var mask: UInt8 = 7
      for offset in 0..<EncodedRun.blockLength { mask &= classes[Int(text[index + offset])] }
      guard mask & 3 != 0 else {
        index += 1
        continue
      }
      func widened(_ bit: UInt8) -> (range: Range<Int>, isHex: Bool) {
        var low = index
        var high = index + EncodedRun.blockLength
        while low > lower && classes[Int(text[low - 1])] & bit != 0 { low -= 1 }
        while high < end && classes[Int(text[high])] & bit != 0 { high += 1 }
        let isHex = (low..<high).allSatisfy { classes[Int(text[$0])] & 4 != 0 }
        return (low..<high, isHex)
      }
      let numeric = mask & 2 != 0 ? widened(2) : nil
      let base64 = mask & 1 != 0 ? widened(1) : nil
      let chosen: (range: Range<Int>, isHex: Bool)
      let kind: EncodedRun.Kind
      if let numeric, base64 == nil || base64!.range.count <= numeric.range.count {
        (chosen, kind) = (numeric, .numeric)
      } else {
        (chosen, kind) = (base64!, .base64)
      }
      var run = EncodedRun(range: chosen.range, kind: kind)
      run.isHex = chosen.isHex
      return run
    }
    return nil
  }

  static func measured(_ text: [UInt8], from: Int, lower: Int, end: Int) -> EncodedRun? {
    (text + [UInt8](repeating: 0, count: 8)).withUnsafeBufferPointer {
      EncodedRun.next(in: $0.baseAddress!, from: from, lower: lower, end: end)
    }
  }

  static func describe(_ run: EncodedRun?) -> String {
    run.map { "\($0.range) \($0.kind) hex: \($0.isHex)" } ?? "none"
  }

  /// Every run of `text` in order, read both ways from `from` (with `lower` as the reach back).
  static func disagreement(_ text: [UInt8], from: Int, lower: Int) -> String? {
    var position = from
    while true {
      let expected = reference(text, from: position, lower: lower, end: text.count)
      let found = measured(text, from: position, lower: lower, end: text.count)
      guard describe(expected) == describe(found) else {
        return "\(String(decoding: text, as: UTF8.self).debugDescription) from \(position): "
          + "\(describe(found)), expected \(describe(expected))"
      }
      guard let expected else { return nil }
      position = expected.range.upperBound
    }
  }

  @Test(arguments: [
    "id=1d6af6d4f253a982b7995612 sha=8c59ba8d09db49b4f97952f6b6fe5a9f612c77f65f1a16a2bb63b602663927b2",
    "payload=aUEkE7B5/HSlgUfHg2pH04Qr0datxwqod2qcrlsFB+CVPhl24BvLYdVFMjtp/HXL4h41E3XQKyF00J9TT4o4njz+9Fw",
    "<7b227072 6f66696c 65223a7b 22656d61 696c223a> [123, 34, 112, 114, 111, 102, 105, 108, 101]",
    "0123456789abcdef0123456789abcdefg0123456789abcdef+/0123456789ABCDEFxyz",
    "req=0b010203-0405-0607-0809-0a0b0c0d0e0f in /Users/dev/App/Sources/RetryManager.swift:784",
    "abcdefabcdefabcdef0123ghijklmnopqrstuvwxyzABCDEFGHIJ+/+/+/abcdef0123456789abcdef01",
  ])
  func findsTheRunsOfLogLines(_ line: String) {
    let text = Array(line.utf8)
    #expect(Self.disagreement(text, from: 0, lower: 0) == nil)
    // From inside the text, reaching back less far than a run goes.
    #expect(Self.disagreement(text, from: text.count / 3, lower: text.count / 4) == nil)
  }

  @Test func findsTheRunsAByteByByteReadingFindsOnRandomText() {
    var generator = SystemRandomNumberGenerator()
    let pools: [[UInt8]] = [
      Array("0123456789abcdef".utf8),
      Array("0123456789abcdefABCDEF".utf8),
      Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/".utf8),
      Array("0123456789abcdefx ,".utf8),
      Array("0123456789abcdefABCDEFxXghzGZ+/=_-\\%, \"{}:.\n".utf8) + [0x80, 0xE9],
    ]
    var disagreements: [String] = []
    for _ in 0..<4_000 {
      var text: [UInt8] = []
      let count = Int.random(in: 16...140, using: &generator)
      while text.count < count {
        let pool = pools.randomElement(using: &generator)!
        for _ in 0..<Int.random(in: 1...40, using: &generator) {
          text.append(pool.randomElement(using: &generator)!)
        }
      }
      let from = Int.random(in: 0...text.count / 2, using: &generator)
      let lower = Int.random(in: 0...from, using: &generator)
      if let disagreement = Self.disagreement(text, from: from, lower: lower) {
        disagreements.append(disagreement)
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(3))")
  }
}
