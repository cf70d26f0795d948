/// What the matcher needs to confirm a hit of one anchor: a canary's longest escape-free run in a
/// binary wrapper, standing for every escaped form of the canary in that wrapper.
///
/// A hit is confirmed by re-encoding each escaped form so that its copy of the run lines up with
/// the hit, and comparing the whole encoded form with the text around it. The longest form that
/// matches names the chain (`json-escaped → base64`); the raw value names the wrapper alone.
struct AnchorInfo {
  /// `.base64`, `.base64url`, `.hex`, `.utf16le` or `.utf16be`.
  var wrapper: ScanEncoding
  /// For base64: how many bytes before the run complete its first 3-byte group, modulo 3.
  var alignment: Int
  /// The run itself.
  var anchor: [UInt8]
  /// The raw value first, then each escaped form, with the step that made it.
  var forms: [(step: ScanEncoding, bytes: [UInt8])]
  /// For base64: the alphabets a hit may belong to (the run's core can be the same in both).
  var alphabets: [(alphabet: [UInt8], name: ScanEncoding)] = []
  /// The chain id of each (form, alphabet) pair; for other wrappers one alphabet.
  var chainIDs: [[UInt16]] = []
  /// The most encoded bytes a form can span on either side of the run, line breaks included.
  var reachLeft = 0
  var reachRight = 0

  init(
    wrapper: ScanEncoding, alignment: Int, anchor: [UInt8], forms: [(ScanEncoding, [UInt8])],
    urlAllowed: Bool, standardAllowed: Bool
  ) {
    self.wrapper = wrapper
    self.alignment = alignment
    self.anchor = anchor
    self.forms = forms.map { (step: $0.0, bytes: $0.1) }
    let longest = forms.isEmpty ? anchor.count : forms.lazy.map { $0.1.count }.max()!
    if wrapper == .base64 || wrapper == .base64url {
      let cores = [Base64Patterns.standardAlphabet, Base64Patterns.urlAlphabet].map {
        Base64Patterns.core(of: anchor, alignment: alignment, alphabet: $0)
      }
      let core = cores[wrapper == .base64url ? 1 : 0]
      for (index, (alphabet, name)) in [
        (Base64Patterns.standardAlphabet, ScanEncoding.base64), (Base64Patterns.urlAlphabet, .base64url),
      ].enumerated()
      where (name == .base64 ? standardAllowed : urlAllowed) && cores[index] == core {
        alphabets.append((alphabet, name))
      }
    }
    reachLeft = Self.reach(wrapper: wrapper, longest: longest)
    if alphabets.isEmpty { alphabets = [([], wrapper)] }
    reachRight = reachLeft
  }

  /// The longest span the matcher may report for this anchor.
  var reach: Int { reachLeft }

  /// The most encoded bytes a form of `longest` bytes spans on either side of the run in
  /// `wrapper`, line breaks included.
  static func reach(wrapper: ScanEncoding, longest: Int) -> Int {
    switch wrapper {
    case .base64, .base64url:
      let encoded = (longest + 2) / 3 * 4 + 4
      return encoded + 2 * (encoded / 60 + 1)
    case .hex: return 2 * longest
    default: return 4 * longest
    }
  }

  static func alphabet(_ wrapper: ScanEncoding) -> [UInt8] {
    wrapper == .base64url ? Base64Patterns.urlAlphabet : Base64Patterns.standardAlphabet
  }
}

extension CompiledMatcher {
  /// Confirms a hit of anchor `info` whose encoded run starts at `start` in `text`: appends a
  /// candidate spanning the longest escaped form found encoded around it, if any.
  func confirmAnchor(
    _ info: AnchorInfo, canary: Int32, start: Int, in text: UnsafePointer<UInt8>, count: Int,
    into candidates: inout [MatchCandidate]
  ) {
    let skipsBreaks = info.wrapper == .base64 || info.wrapper == .base64url
    // The wrapper's bytes around the hit with line breaks removed, and where each one sits.
    var bytes: [UInt8] = []
    var positions: [Int] = []
    var index = start - 1
    while index >= 0, bytes.count < info.reachLeft {
      let byte = text[index]
      if skipsBreaks && (byte == 0x0A || byte == 0x0D) {
        index -= 1
        continue
      }
      bytes.append(byte)
      positions.append(index)
      index -= 1
    }
    let hit = bytes.count
    bytes.reverse()
    positions.reverse()
    index = start
    while index < count, bytes.count - hit < info.reachRight {
      let byte = text[index]
      if !(skipsBreaks && (byte == 0x0A || byte == 0x0D)) {
        bytes.append(byte)
        positions.append(index)
      }
      index += 1
    }
    var best: (from: Int, length: Int, chain: UInt16, expected: [UInt8])? = nil
    for (formIndex, form) in info.forms.enumerated() {
      guard let run = form.bytes.firstRange(of: info.anchor) else { continue }
      for (alphabetIndex, alphabet) in info.alphabets.enumerated() {
        guard
          let (expected, from) = Self.expectedEncoding(
            of: form.bytes, run: run.lowerBound, info, alphabet.alphabet, hit: hit)
        else { continue }
        guard from >= 0, from + expected.count <= bytes.count, expected.count > (best?.length ?? 0) else {
          continue
        }
        let equal: Bool
        if info.wrapper == .hex {
          equal = (0..<expected.count).allSatisfy { ByteFold.table[Int(bytes[from + $0])] == expected[$0] }
        } else {
          equal = bytes[from..<from + expected.count].elementsEqual(expected)
        }
        if equal { best = (from, expected.count, info.chainIDs[formIndex][alphabetIndex], expected) }
      }
    }
    guard let best else { return }
    if info.wrapper == .utf16be,
      best.expected.withUnsafeBufferPointer({
        yieldsToLittleEndian(
          literal: $0.baseAddress!, length: $0.count, start: positions[best.from], in: text, count: count)
      })
    {
      return
    }
    candidates.append(
      MatchCandidate(
        canary: canary, chain: best.chain, rank: .exact, start: positions[best.from],
        end: positions[best.from + best.length - 1] + 1))
  }

  /// A form in the anchor's wrapper, and where it starts among the cleaned bytes, given that the
  /// form's copy of the run (at byte `run`) lines up with the hit at `hit`.
  private static func expectedEncoding(
    of form: [UInt8], run: Int, _ info: AnchorInfo, _ alphabet: [UInt8], hit: Int
  ) -> ([UInt8], Int)? {
    switch info.wrapper {
    case .hex:
      return (TextEscapes.hex(form, digits: TextEscapes.lowerHex), hit - 2 * run)
    case .utf16le, .utf16be:
      let before = String(decoding: form[..<run], as: UTF8.self).utf16.count
      return (PatternEncoder.utf16(form, bigEndian: info.wrapper == .utf16be), hit - 2 * before)
    case .base64, .base64url:
      // The hit's frame: character 0 encodes the group holding the run's first byte at
      // `alignment`. The form starts `run` bytes earlier; shift by whole groups (4 characters
      // per 3 bytes) so its own alignment is 0, 1 or 2.
      let firstChar = { (alignment: Int) in (alignment * 8 + 5) / 6 }
      let formStart = info.alignment - run
      let formAlignment = ((formStart % 3) + 3) % 3
      let groups = (formStart - formAlignment) / 3
      let core = Base64Patterns.core(of: form, alignment: formAlignment, alphabet: alphabet)
      return (core, hit - firstChar(info.alignment) + 4 * groups + firstChar(formAlignment))
    default:
      return nil
    }
  }
}
