// The loopback server is its own target, `CanaryTrapServer`, which knows nothing of canaries: the
// compiler keeps it that way. Its public API is what a route is written with (`on`, `onWebSocket`,
// `ServerResponse` and its builders, `RecordedRequest`, `HTTPMethod`, `HTTPHeaders`, the streaming
// and WebSocket script types); its settings, life cycle and records are `package`. So `import
// CanaryTrap` brings exactly the route API along: the package's one re-export (DocC
// "Architecture"). CI/fuzz.sh compiles both targets as one module, where this import resolves to
// an empty stand-in.
@_exported import CanaryTrapServer
