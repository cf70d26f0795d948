import Foundation

@testable import CanaryTrap

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ways of writing to the standard streams that the capture must catch, as an app would use them.
enum StandardStreamWriters {
  /// C stdio's own `stderr` stream (Swift 6 forbids naming the C global directly).
  static func cStandardError() -> UnsafeMutablePointer<FILE>? {
    #if canImport(Darwin)
      let symbolName = "__stderrp"
    #else
      let symbolName = "stderr"
    #endif
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, symbolName) else { return nil }
    return symbol.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self).pointee
  }

  /// Writes `text` with C `fputs` to C's `stderr`.
  static func fputsToStandardError(_ text: String) {
    if let stream = cStandardError() { fputs(text, stream) }
  }

  /// The lines of `data` (split on newlines) that start with `prefix`.
  static func lines(in data: Data, startingWith prefix: String) -> [String] {
    data.split(separator: UInt8(ascii: "\n"))
      .map { String(decoding: $0, as: UTF8.self) }
      .filter { $0.hasPrefix(prefix) }
  }
}
