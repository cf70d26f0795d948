/// One literal byte string the scanner searches for: a canary in one chain of encodings.
///
/// Case-insensitive matches and fragments are searched from the ``ScanEncoding/raw`` pattern and
/// have no pattern of their own. An *anchor* pattern is only part of an encoded value: a run of
/// the canary that no text escape changes, inside a binary wrapper; a hit is confirmed by
/// re-encoding the canary's escaped forms around it, and the finding names the chain that
/// explains the bytes.
package struct ScanPattern: Sendable, Hashable {
  /// The canary the bytes stand for.
  package var canary: Canary
  /// How the canary was encoded to make ``bytes``, innermost first.
  package var chain: EncodingChain
  /// The exact bytes searched.
  package var bytes: [UInt8]
  /// Whether ``bytes`` is an anchor: part of the canary in ``chain``'s outermost wrapper,
  /// confirmed around each hit.
  package var isAnchor: Bool

  /// The outermost encoding of ``chain``: the form the bytes have in a sink.
  package var encoding: ScanEncoding { chain.outermost }

  /// Creates a pattern of one encoding.
  package init(canary: Canary, encoding: ScanEncoding, bytes: [UInt8]) {
    self.init(canary: canary, chain: EncodingChain(encoding), bytes: bytes)
  }

  /// Creates a pattern of a chain of encodings.
  package init(canary: Canary, chain: EncodingChain, bytes: [UInt8], isAnchor: Bool = false) {
    self.canary = canary
    self.chain = chain
    self.bytes = bytes
    self.isAnchor = isAnchor
  }
}

extension ScanPattern {
  /// Whether the matcher compares ``bytes`` in any letter case: a one-step literal of an encoding
  /// in ``CompiledMatcher/caseInsensitive`` (hex digits, base32 letters), whatever the options say.
  package var matchesAnyCase: Bool {
    !isAnchor && CompiledMatcher.literalFoldsCase(encoding, composed: chain.steps.count > 1)
  }

  /// Whether `haystack` holds ``bytes`` at `offset` as the matcher compares them: exactly, or in
  /// any letter case when ``matchesAnyCase``.
  package func isSpelled(in haystack: [UInt8], at offset: Int) -> Bool {
    guard offset >= 0, offset + bytes.count <= haystack.count else { return false }
    guard matchesAnyCase else { return haystack[offset...].starts(with: bytes) }
    return zip(haystack[offset...], bytes).allSatisfy { ByteFold.table[Int($0)] == ByteFold.table[Int($1)] }
  }
}
