import CanaryTrap
import Foundation

/// Writes the report of `canary scan` to standard output or `--output`, in chunks, turning every
/// write failure into a one-line error.
enum ScanReportWriter {
  /// The bytes handed to one write call.
  static let chunkSize = 1 << 16

  /// Renders `report` in `format` and writes it to `output`, or to standard output when `nil`.
  static func write(_ report: LeakReport, as format: ReportFormat, to output: ScanOutput?, io: CommandIO)
    throws
  {
    let rendered = report.rendered(as: format)
    let produce: ((Data) throws -> Void) throws -> Void = { emit in
      var offset = 0
      while offset < rendered.count {
        let end = min(offset + chunkSize, rendered.count)
        try emit(rendered.subdata(in: offset..<end))
        offset = end
      }
    }
    if let output {
      try output.write(produce)
    } else {
      try produce { try io.writeOutputData($0) }
    }
  }
}
