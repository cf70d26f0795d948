import Foundation

extension InspectorEntry {
  /// The request as a `curl` command line that replays it, the way inspectors share a request
  /// in a bug report.
  package func curlCommand() -> String {
    var parts = ["curl", "-X", Self.shellQuoted(method), Self.shellQuoted(url)]
    for header in requestHeaders {
      parts += ["-H", Self.shellQuoted("\(header.name): \(header.value)")]
    }
    if let requestBody, !requestBody.isEmpty {
      parts += ["--data-binary", Self.shellQuoted(String(decoding: requestBody, as: UTF8.self))]
    }
    return parts.joined(separator: " ")
  }

  /// `text` in single quotes, with each single quote closed, escaped and reopened.
  ///
  /// Works on Unicode scalars, so a combining mark after a quote cannot hide it.
  static func shellQuoted(_ text: String) -> String {
    var quoted = "'"
    for scalar in text.unicodeScalars {
      if scalar == "'" {
        quoted += "'\\''"
      } else {
        quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "'"
  }
}
