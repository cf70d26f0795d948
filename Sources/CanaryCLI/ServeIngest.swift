import CanaryTrap
import Foundation

/// `canary serve --ingest PORT`: an ingest sink next to the scripted server, for an app in another
/// process whose crash reporter, analytics or log shipper uploads to it; when the command stops,
/// every upload is scanned for the manifest's canaries and the verdict is reported.
struct ServeIngest {
  static let portOption = Option<Int?>.integer(
    "--ingest", placeholder: "PORT",
    help:
      "Also listen on 127.0.0.1:PORT (0 picks one) as an upload URL for the app's crash reporter,"
      + " analytics or log shipper; its URL is printed to standard error. On stop every upload is"
      + " scanned for the manifest's canaries (gzip and deflate opened, Sentry envelopes and JSON"
      + " lines split) and the verdict printed: leaky, clean, or inconclusive when nothing was"
      + " uploaded or an upload could not be read.",
    range: 0...65535)

  static let reportOption = Option<ScanPath?>.path(
    "--ingest-report",
    help: "Write the uploads' scan as a JSON report there (needs --ingest). " + OutputOptions.rules)

  /// The sink uploads go to.
  let sink: IngestSink
  /// Where the JSON report goes, if asked.
  let reportFile: OutputFile?
  /// The manifest's canaries.
  let canaries: [Canary]

  /// Starts the ingest sink when `--ingest` was given (nil otherwise); throws one line when the
  /// options are wrong or the port cannot be bound.
  static func start(
    _ parsed: ParsedCommand, manifestPath: ScanPath, canaries: [Canary], io: CommandIO
  ) throws -> ServeIngest? {
    guard let port = parsed[portOption] else {
      if parsed[reportOption] != nil {
        throw ServeCommand.UsageError(description: "--ingest-report needs --ingest PORT")
      }
      return nil
    }
    let reportFile = try OutputOptions.open(
      parsed, option: reportOption, inputs: CommandInput.files([manifestPath]))
    let sink = IngestSink(
      settle: IngestSink.Settle(quiet: .milliseconds(250), timeout: .seconds(1)), port: UInt16(port))
    do {
      try sink.start()
    } catch {
      throw ServeCommand.UsageError(description: "cannot listen for uploads on 127.0.0.1:\(port): \(error)")
    }
    io.writeError("canary serve: ingest on \(sink.url.absoluteString)\n")
    return ServeIngest(sink: sink, reportFile: reportFile, canaries: canaries)
  }

  /// Waits for uploads to settle, stops the sink, scans what it kept, writes the report if asked
  /// and prints the verdict; returns false when the report could not be written.
  func finish(io: CommandIO) async -> Bool {
    let report = await sink.report(title: "ingest", canaries: canaries)
    sink.stop()
    io.writeError(
      "canary serve: ingest: \(sink.uploads.count) uploads kept, \(sink.droppedUploads) dropped; "
        + report.verdictLine + "\n")
    guard let reportFile else { return true }
    do {
      let data = try report.jsonData()
      try reportFile.write { try $0(data) }
      return true
    } catch {
      io.writeError("canary serve: cannot write the ingest report: \(error)\n")
      return false
    }
  }
}
