import CanaryTrap
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `canary serve`: serve scripted canary exchanges on loopback for an app in another process.
enum ServeCommand {
  static let command = CommandSpec(
    name: "serve", abstract: "Serve scripted canary exchanges on loopback for another process.",
    discussion: """
      Serves the manifest's response-side canaries on 127.0.0.1 until SIGINT or SIGTERM, writing \
      every request as it arrives, then which canaries were seen, as JSON Lines.

      Every response carries the response.header[..] and response.cookie[..] canaries; bodies are \
      JSON with the response.body.json[..] canaries (response.body.text ones under "text"). GET \
      /redirect starts a redirect chain carrying the redirect[k].location.* canaries and ending on a \
      final URL carrying the final.url.* canaries. A WebSocket handshake to /websocket is answered \
      101 (with the first subprotocol offered) and sent the websocket.server[k].* canaries as \
      message k, then the close handshake with the websocket.server.close.reason canary.
      """,
    options: [
      ScanArguments.manifestOption, portOption, recordOption, OutputOptions.force, OutputOptions.fifoWait,
      ServeIngest.portOption, ServeIngest.reportOption,
    ],
    epilogue: """
      The base URL is printed on the first line of standard output once the server listens. The \
      record is JSON Lines, written as the server runs so memory stays flat however long it serves, \
      on a thread of its own through a 16 MiB queue so that a reader that falls behind or stops \
      reading never slows the server (lines that do not fit are dropped and counted: \
      "recordLinesDropped" in the summary and on standard error; on stop, the record is written \
      while its reader takes bytes, and exit 2 says so once it takes none for half a second): \
      a "start" line with the base URL; one "request" line per request in arrival order (method, \
      target, path, headers in order, body as text and base64, the exact raw bytes in base64, each \
      cut to 1 MiB with "bytesNotWritten" saying how much was cut; "query" and "malformed" only when \
      present); on stop, one "websocket" line per /websocket conversation (its upgrade request's \
      number, subprotocol, the client's messages, the server's with whether each was written, both \
      close frames, any failure), then a "summary" line with the request count, connections shed and requests \
      timed out, and for each request-side canary whether and in which requests it was seen (a \
      WebSocket message or close reason counts for its upgrade request), for each \
      response-side canary whether a fully written response carried it (and to which requests); the \
      first 100 request numbers are listed per canary, "count" has them all.
      """,
    run: { parsed, io in
      // Catch the signals before the base URL is printed: a caller may send one right after.
      let signals = TerminationSignals()
      return await execute(parsed, io: io, until: { await signals.wait() })
    })

  static let portOption = Option<Int?>.integer(
    "--port", short: "p", help: "The loopback port to listen on; 0 picks an ephemeral port.",
    defaultValue: "0",
    range: 0...65535)

  static let recordOption = Option<ScanPath?>.path(
    "--record",
    help:
      "Stream the record there instead of standard output (where it follows the base URL); it is"
      + " checked and its first line written before anything is served. An existing file is"
      + " truncated only with --force; a device or FIFO is written in place; a directory, the"
      + " manifest, or a file the shell's > could not write is refused.")

  /// Runs `canary serve` with `arguments` (after the word `serve`).
  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    await CommandRunner.run(command, arguments, commandName: "canary serve", io: io)
  }

  /// Runs the command, stopping when `until` returns (tests pass their own trigger).
  static func run(_ arguments: [String], io: CommandIO, until stop: @escaping @Sendable () async -> Void)
    async
    -> Int32
  {
    let spec = command.running { parsed, io in await execute(parsed, io: io, until: stop) }
    return await CommandRunner.run(spec, arguments, commandName: "canary serve", io: io)
  }

  /// Serves until `stop` returns.
  static func execute(_ parsed: ParsedCommand, io: CommandIO, until stop: @Sendable () async -> Void) async
    -> Int32
  {
    guard let manifestPath = parsed[ScanArguments.manifestOption] else {
      return CommandRunner.fail("--manifest FILE is required", "canary serve", io)
    }
    let port = UInt16(parsed[portOption] ?? 0)
    let manifest: CanaryManifest
    let recordFile: OutputFile?
    do {
      manifest = try CanaryManifest(contentsOfPath: manifestPath.bytes)
      recordFile = try OutputOptions.open(
        parsed, option: recordOption, inputs: CommandInput.files([manifestPath]))
    } catch {
      return CommandRunner.fail("\(error)", "canary serve", io)
    }
    var configuration = LoopbackServer.Configuration()
    configuration.port = port
    // The record is streamed; the server keeps only a bounded list of malformed requests.
    configuration.recordsRequests = false
    configuration.maxRecordedRequests = 1000
    // WebSocket conversations are kept (bounded by the record's limits) and written on stop.
    configuration.recordsWebSocketsAlways = true
    let server = LoopbackServer(configuration: configuration)
    let script = ServeScript(canaries: manifest.canaries)
    for location in script.unsupported {
      io.writeError("canary serve: cannot plant \(location); it is listed but not served\n")
    }
    do {
      try server.start()
    } catch {
      return CommandRunner.fail("cannot listen on 127.0.0.1:\(port): \(error)", "canary serve", io)
    }
    let ingest: ServeIngest?
    do {
      ingest = try ServeIngest.start(parsed, manifestPath: manifestPath, canaries: manifest.canaries, io: io)
    } catch {
      server.stop()
      return CommandRunner.fail("\(error)", "canary serve", io)
    }
    let baseURL = server.baseURL
    let record: ServeRecord
    do {
      let destination: ServeRecord.Destination =
        try recordFile.map { .file(try $0.openStream(), name: $0.requested.displayName) } ?? .output(io)
      record = try ServeRecord(writingTo: destination, baseURL: baseURL, canaries: manifest.canaries)
    } catch {
      server.stop()
      return CommandRunner.fail("\(error)", "canary serve", io)
    }
    server.observeRecord { record.observe($0) }
    server.setFallback { request in script.response(forPath: request.path, baseURL: baseURL) }
    server.onWebSocket(ServeScript.webSocketEntry) { request in script.webSocketScript(for: request) }
    do {
      // The first line of standard output, once requests are recorded; one that cannot be written
      // stops the command now rather than serving a caller that cannot learn where.
      try io.writeOutputData(Data("\(baseURL.absoluteString)\n".utf8))
      record.startWriting()
    } catch {
      server.stop()
      _ = record.finish(counters: server.counters)
      return CommandRunner.fail("\(error)", "canary serve", io)
    }
    await stop()
    server.stop()
    let ingestWritten = await ingest?.finish(io: io) ?? true
    record.recordWebSockets(server.webSockets)
    switch record.finish(counters: server.counters) {
    case .success(let summary):
      io.writeError(
        "canary serve: stopped after \(summary.requests) requests; "
          + "request-side canaries seen: \(summary.requestSeen) of \(summary.requestCanaries)"
          + Self.notKept(summary.counters) + Self.notWritten(summary) + "\n")
      if summary.unwrittenBytes > 0 {
        io.writeError(
          "canary serve: the record is incomplete: its reader took nothing for half a second after the stop; "
            + "\(summary.unwrittenBytes) bytes, the summary line among them, were never written\n")
        return ExitStatus.usage
      }
    case .failure(let error):
      io.writeError("canary serve: \(error)\n")
      return ExitStatus.usage
    }
    return ingestWritten ? ExitStatus.success : ExitStatus.usage
  }

  /// A bad command line, described in one line.
  struct UsageError: Error, CustomStringConvertible {
    var description: String
  }

  /// How many record lines were dropped because the record's reader did not keep up, for the
  /// closing message (the summary line says it too, as `recordLinesDropped`).
  static func notWritten(_ summary: ServeRecord.Summary) -> String {
    guard summary.droppedLines > 0 else { return "" }
    return "; record lines dropped (its reader did not keep up; the server never waits for it): "
      + "\(summary.droppedLines)"
  }

  /// What of the WebSocket conversations the record could not keep, for the closing message; a
  /// canary in them cannot be counted as seen.
  static func notKept(_ counters: ServerCounters) -> String {
    guard counters.webSocketsDropped > 0 || counters.webSocketMessagesDropped > 0 else { return "" }
    return "; not kept (the record was full): \(counters.webSocketsDropped) WebSocket conversations, "
      + "\(counters.webSocketMessagesDropped) WebSocket messages"
  }
}
