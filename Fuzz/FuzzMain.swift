#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The target chosen by the environment variable `CANARY_FUZZ_TARGET` (http, multipart, manifest,
/// scanner, gzip, zlib, bzip2, lz4, zip, tar, sqlite, wal, bplist, openapi, har, xmlpath, websocket); one binary holds every target so CI compiles the package once.
let selectedFuzzTarget: ([UInt8]) -> Void = {
  let name = getenv("CANARY_FUZZ_TARGET").map { String(cString: $0) } ?? ""
  switch name {
  case "http": return fuzzHTTPParser
  case "multipart": return fuzzMultipart
  case "manifest": return fuzzManifest
  case "scanner": return fuzzScanner
  case "gzip": return fuzzContainer(.gzip)
  case "zlib": return fuzzContainer(.zlib)
  case "bzip2": return fuzzContainer(.bzip2)
  case "lz4": return fuzzContainer(.appleLZ4)
  case "zip": return fuzzContainer(.zip)
  case "tar": return fuzzContainer(.tar)
  case "sqlite": return fuzzContainer(.sqlite)
  case "wal": return fuzzContainer(.sqliteWAL)
  case "bplist": return fuzzContainer(.binaryPropertyList)
  case "openapi": return fuzzImport(true)
  case "har": return fuzzImport(false)
  case "xmlpath": return fuzzXMLPath
  case "websocket": return fuzzWebSocket
  default:
    fputs(
      "set CANARY_FUZZ_TARGET to http, multipart, manifest, scanner, gzip, zlib, bzip2, lz4, zip, tar, sqlite, wal, bplist, openapi, har, xmlpath or websocket\n",
      stderr)
    exit(2)
  }
}()

/// libFuzzer's entry point: runs the selected target on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
  selectedFuzzTarget(bytes)
  return 0
}

/// Stops with `message` when `condition` is false; unlike `precondition`, the message is printed
/// in optimized builds too, so a crash log names the broken invariant.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fuzzFailure(message()) }
}

/// Stops with `message`, printed in optimized builds too.
func fuzzFailure(_ message: String) -> Never {
  fatalError("fuzz invariant broken: \(message)")
}
