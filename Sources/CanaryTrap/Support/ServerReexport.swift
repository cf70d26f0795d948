// The loopback server is its own target, `CanaryTrapServer`, which knows nothing of canaries: the
// compiler keeps it that way. `import CanaryTrap` brings it along, so users write one import.
// CI/fuzz.sh compiles both targets as one module and defines CANARY_FUZZ_SINGLE_MODULE.
#if !CANARY_FUZZ_SINGLE_MODULE
  @_exported import CanaryTrapServer
#endif
