// The loopback server is its own target, `CanaryTrapServer`, which knows nothing of canaries: the
// compiler keeps it that way. Its request, response and record types are the core's public API (a
// scope's server, routes and record), so `import CanaryTrap` brings them along: the package's one
// re-export (DocC "Architecture"). CI/fuzz.sh compiles both targets as one module, where this
// import resolves to an empty stand-in.
@_exported import CanaryTrapServer
