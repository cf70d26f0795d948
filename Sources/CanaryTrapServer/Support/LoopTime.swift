#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Monotonic time in nanoseconds as the event loop keeps it: read once per wake and stored as a
/// plain integer, cheaper to copy and compare than `ContinuousClock.Instant` (a resilient type,
/// copied through its value witnesses).
enum LoopTime {
  /// The monotonic clock now, in nanoseconds.
  static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
  }

  /// The longest span kept: a deadline this far away never passes, and adding it cannot overflow.
  static let forever = UInt64.max / 4

  /// `duration` in nanoseconds: 0 when negative, at most ``forever``.
  static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return forever }
    return min(whole &+ UInt64(max(0, attoseconds) / 1_000_000_000), forever)
  }
}
