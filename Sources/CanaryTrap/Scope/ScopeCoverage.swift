/// Whether a scope tested anything at all: a scope in which no canary was planted cannot find a
/// leak in any sink, so its silence is never evidence of a clean app (see <doc:Sinks>).
///
/// Canaries that were planted but never delivered need no rule here: each is undelivered, which
/// already makes the run inconclusive.
struct ScopeCoverage {
  /// How many canaries the scope planted (held secrets included).
  let planted: Int

  /// Why the run cannot be clean for lack of a canary, or nil when at least one was planted.
  var inconclusiveReason: RunError? { planted == 0 ? .noCanaryPlanted : nil }
}
