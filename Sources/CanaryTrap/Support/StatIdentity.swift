/// Device and inode numbers from `stat` as unsigned 64-bit keys, by bit pattern: Darwin's
/// `dev_t` is a signed `Int32` that can be negative, where `UInt64(_:)` would trap.
package enum StatIdentity {
  /// `field` widened to 64 bits with its sign, then read as unsigned, so distinct values stay
  /// distinct and no value traps.
  package static func key<Field: BinaryInteger>(_ field: Field) -> UInt64 {
    UInt64(truncatingIfNeeded: field)
  }
}
