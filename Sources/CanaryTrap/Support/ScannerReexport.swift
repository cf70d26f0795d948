// The scanner is its own target, `CanaryTrapScanner`, on the primitives alone: it knows nothing of
// scopes, sinks, proofs, the matrix or reports, and the compiler keeps it that way. Its vocabulary
// (canaries, locations, findings, scanned sources, sink content) and `LeakScanner` are the core's
// public API, so `import CanaryTrap` brings them along (DocC "Architecture"). CI/fuzz.sh compiles
// the targets as one module, where this import resolves to an empty stand-in.
@_exported import CanaryTrapScanner
