import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns test names into safe, unique report file names.
package enum ReportFileName {
  /// `name` reduced to letters, digits, `-`, `_` and `.`, at most 120 bytes, never empty or
  /// hidden: `SignInTests/signIn(email:)` becomes `SignInTests-signIn-email`.
  package static func sanitized(_ name: String) -> String {
    var result = ""
    var pendingDash = false
    for scalar in name.unicodeScalars {
      let isSafe =
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || scalar == "_" || scalar == "." || scalar == "-"
      if isSafe {
        if pendingDash && !result.isEmpty { result.append("-") }
        pendingDash = false
        result.unicodeScalars.append(scalar)
      } else {
        pendingDash = true
      }
      if result.utf8.count >= 120 { break }
    }
    while result.hasPrefix(".") || result.hasPrefix("-") { result.removeFirst() }
    while result.hasSuffix(".") || result.hasSuffix("-") { result.removeLast() }
    return result.isEmpty ? "report" : result
  }

  /// Claims a base name in `directory` that no other report uses, `name`, `name-2`, `name-3`, …,
  /// by creating its text file exclusively, so that tests running in parallel never overwrite
  /// each other's reports.
  package static func claimUnique(_ name: String, in directory: URL) throws -> String {
    let base = sanitized(name)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for attempt in 1...10_000 {
      let candidate = attempt == 1 ? base : "\(base)-\(attempt)"
      let marker = directory.appendingPathComponent(
        "\(candidate).\(ReportFormat.text.fileExtension)")
      if try createExclusively(marker) { return candidate }
    }
    throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: directory.path])
  }

  /// Creates an empty file at `url` unless one exists; returns whether this call created it.
  private static func createExclusively(_ url: URL) throws -> Bool {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    if descriptor >= 0 {
      close(descriptor)
      return true
    }
    if errno == EEXIST { return false }
    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
  }
}

extension LeakReport {
  /// Writes the report in every format to `directory` under a base name derived from `name` that
  /// no earlier report in the directory uses, refreshes the directory's ``ReportIndex`` page, and
  /// returns the report's files.
  @discardableResult
  package func writeUniquely(to directory: URL, name: String) throws -> [URL] {
    let files = try write(to: directory, baseName: ReportFileName.claimUnique(name, in: directory))
    try ReportIndex.write(in: directory)
    return files
  }
}
