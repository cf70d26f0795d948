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
