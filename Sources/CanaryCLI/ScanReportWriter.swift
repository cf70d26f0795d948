import CanaryTrap
import Foundation

/// Writes the report of `canary scan` to standard output or `--output`, in pieces, turning every
/// write failure into a one-line error.
enum ScanReportWriter {
  /// Renders `report` in `format` and writes it to `output`, or to standard output when `nil`,
  /// as a stream: each piece (about 64 KiB, or one finding) is written as soon as it is rendered.
  static func write(_ report: LeakReport, as format: ReportFormat, to output: OutputFile?, io: CommandIO)
    throws
  {
    let produce: ((Data) throws -> Void) throws -> Void = { emit in
      try report.streamRendering(as: format, emit)
    }
    if let output {
      try output.write(produce)
    } else {
      try produce { try io.writeOutputData($0) }
    }
  }
}
