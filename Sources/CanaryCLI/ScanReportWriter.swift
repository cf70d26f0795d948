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
    try stream(to: output, io: io) { emit in try report.streamRendering(as: format, emit) }
  }

  /// Runs `produce`, writing each piece it emits to `output` (complete only once `produce`
  /// returns), or to standard output when `nil`.
  static func stream(
    to output: OutputFile?, io: CommandIO, _ produce: ((Data) throws -> Void) throws -> Void
  ) throws {
    if let output {
      try output.write(produce)
    } else {
      try produce { try io.writeOutputData($0) }
    }
  }
}
