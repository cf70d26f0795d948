import Foundation

/// When, for how long and on which machine a run happened; JUnit consumers require all three.
package struct ReportRun: Sendable, Hashable {
  /// When the run began.
  package var started: Date
  /// How long the run took, in seconds.
  package var seconds: Double
  /// The machine that ran it, `localhost` when unknown.
  package var hostname: String

  /// Creates a run record.
  package init(started: Date, seconds: Double, hostname: String = ReportRun.currentHostname) {
    self.started = started
    self.seconds = max(0, seconds)
    self.hostname = hostname.isEmpty ? "localhost" : hostname
  }

  /// A run that began at `started` and ends now, on this machine.
  package static func endingNow(startedAt started: Date) -> ReportRun {
    ReportRun(started: started, seconds: Date().timeIntervalSince(started))
  }

  /// This machine's host name, or `localhost`.
  package static var currentHostname: String {
    let name = ProcessInfo.processInfo.hostName
    return name.isEmpty ? "localhost" : name
  }

  /// `started` as `YYYY-MM-DDTHH:MM:SS` in UTC with no zone suffix, the form the Ant JUnit schema
  /// accepts ("timezone may not be specified").
  var junitTimestamp: String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: started)
    func two(_ value: Int?) -> String {
      let text = String(value ?? 0)
      return text.count < 2 ? "0" + text : text
    }
    let year = String(parts.year ?? 1970)
    return
      "\(year)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
  }

  /// `seconds` with three decimals and a dot, as JUnit's `time` attributes take it.
  var junitSeconds: String {
    let milliseconds = Int((seconds * 1000).rounded())
    let fraction = String(milliseconds % 1000)
    return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
