import CanaryTrap
import Foundation

/// Writes the report of `canary scan` to standard output or `--output`, in pieces, turning every
/// write failure into a one-line error.
enum ScanReportWriter {
  /// The bytes handed to one write call for formats rendered whole.
  static let chunkSize = 1 << 16

  /// Renders `report` in `format` and writes it to `output`, or to standard output when `nil`.
  /// JSON is written as a stream, one finding at a time; the other formats are rendered whole
  /// (bounded by the findings cap) and written in chunks.
  static func write(_ report: LeakReport, as format: ReportFormat, to output: ScanOutput?, io: CommandIO)
    throws
  {
    let produce: ((Data) throws -> Void) throws -> Void =
      format == .json ? { emit in try report.streamJSON(emit) } : chunks(of: report.rendered(as: format))
    if let output {
      try output.write(produce)
    } else {
      try produce { try io.writeOutputData($0) }
    }
  }

  /// A producer that hands `rendered` over in pieces of ``chunkSize`` bytes.
  private static func chunks(of rendered: Data) -> ((Data) throws -> Void) throws -> Void {
    { emit in
      var offset = 0
      while offset < rendered.count {
        let end = min(offset + chunkSize, rendered.count)
        try emit(rendered.subdata(in: offset..<end))
        offset = end
      }
    }
  }
}
