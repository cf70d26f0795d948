/// Which q-grams of each literal the index holds, and how often the text is probed.
///
/// The text is probed at one q-gram every ``step`` bytes. A literal is indexed at a window of
/// ``step`` consecutive offsets: every occurrence then holds exactly one probe inside the window.
/// A smaller step costs more probes and fewer index entries, so large canary sets use a smaller
/// one (see ``step(canaryCount:minFragment:)``): the index then grows by about one entry per
/// literal instead of nine.
struct IndexLayout: Equatable {
  /// The q-gram length: 8, or the shortest literal when one is shorter.
  var gramLength: Int
  /// Bytes between two probes, and offsets in each literal's window.
  var step: Int
  /// The shortest fragment reported, when fragments are on.
  var minFragment: Int?

  /// The largest step: one probe every 9 bytes finds any 16 bytes, the default fragment length.
  static let maximumStep = 9

  /// About how many index entries a canary set may have before the step shrinks: some 80 MB.
  static let entryBudget = 1 << 22

  /// Index entries per canary at step 1, for sizing the step: about as many as literals.
  static let entriesPerCanaryAtStepOne = 64

  /// The step for `canaryCount` canaries: the largest (at most ``maximumStep``) whose index fits
  /// ``entryBudget``, never less than 1, and small enough that every run of `minFragment` bytes
  /// holds a probe.
  static func step(canaryCount: Int, minFragment: Int?, budget: Int = entryBudget) -> Int {
    var step = maximumStep
    let fitting = budget / max(1, canaryCount * entriesPerCanaryAtStepOne)
    step = min(step, max(1, fitting))
    if let minFragment { step = min(step, max(1, minFragment - 8 + 1)) }
    return step
  }

  /// The mask keeping a q-gram's `gramLength` bytes.
  var gramMask: UInt64 { gramLength == 8 ? ~0 : (UInt64(1) << UInt64(8 * gramLength)) - 1 }

  /// Bytes between two indexed offsets of a value when fragments are on: a run of `minFragment`
  /// bytes spans `minFragment - gramLength + 1` q-gram offsets, probed every `step`; with a
  /// stride coprime to the step and at most the number of probes in the run, one probe always
  /// lands on an indexed offset.
  var valueStride: Int {
    guard let minFragment else { return 0 }
    let probes = max(1, (minFragment - gramLength + 1) / step)
    var stride = probes
    while stride > 1 && Self.gcd(stride, step) != 1 { stride -= 1 }
    return stride
  }

  /// Calls `body(window, offset)` for every indexed offset of a literal of `length` bytes: a
  /// value (with fragments on) at every ``valueStride`` bytes and its middle window; a literal
  /// that line breaks may split at its first and its last window (found when either end is
  /// unbroken); any other literal at its middle window, away from prefixes and suffixes many
  /// canaries share. `window` numbers the offsets, for ``offset(window:length:wrapsLines:)``.
  func forEachOffset(length: Int, isValue: Bool, wrapsLines: Bool, _ body: (Int, Int) -> Void) {
    let all = length - gramLength + 1
    guard all > 0 else { return }
    if isValue && minFragment != nil {
      let stride = valueStride
      var offset = 0
      while offset < all {
        body(offset, offset)
        offset += stride
      }
      let middle = middleStart(all)
      for offset in middle..<min(all, middle + step) where offset % stride != 0 { body(offset, offset) }
      return
    }
    if wrapsLines {
      let head = min(all, step)
      for offset in 0..<head { body(offset, offset) }
      let tail = length - (step + gramLength - 1)
      guard tail > 0 else { return }
      for offset in tail..<min(all, tail + step) where offset >= head { body(head + offset - tail, offset) }
      return
    }
    let middle = middleStart(all)
    for offset in middle..<min(all, middle + step) { body(offset - middle, offset) }
  }

  /// The offset numbered `window` by ``forEachOffset(length:isValue:wrapsLines:_:)`` in a literal
  /// that is not a value.
  func offset(window: Int, length: Int, wrapsLines: Bool) -> Int {
    let all = length - gramLength + 1
    if wrapsLines {
      let head = min(all, step)
      return window < head ? window : window - head + length - (step + gramLength - 1)
    }
    return middleStart(all) + window
  }

  private func middleStart(_ all: Int) -> Int { max(0, (all - step) / 2) }

  private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
