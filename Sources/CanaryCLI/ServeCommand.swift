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
  static let help = """
    USAGE: canary serve --manifest FILE [--port N] [--record FILE]

    Serves the manifest's response-side canaries on 127.0.0.1 until SIGINT or SIGTERM, writing
    every request as it arrives, then which canaries were seen, as JSON Lines.

    Every response carries the response.header[..] and response.cookie[..] canaries; bodies are
    JSON with the response.body.json[..] canaries (response.body.text ones under "text"). GET
    /redirect starts a redirect chain carrying the redirect[k].location.* canaries and ending on a
    final URL carrying the final.url.* canaries.

    OPTIONS:
      --manifest FILE  The canary manifest (required).
      --port N         The loopback port to listen on (default: an ephemeral port).
      --record FILE    Where to stream the record (default: standard output, after the URL).

    The base URL is printed on the first line of standard output once the server listens. The
    record is JSON Lines, written as the server runs so memory stays flat however long it serves:
    a "start" line with the base URL; one "request" line per request in arrival order (method,
    target, path, headers in order, body as text and base64, the exact raw bytes in base64, each
    cut to 1 MiB with "bytesNotWritten" saying how much was cut; "query" and "malformed" only when
    present); on stop, a "summary" line with the request count, connections shed and requests timed
    out, and for each request-side canary whether and in which requests it was seen, for each
    response-side canary whether a fully written response carried it (and to which requests); the
    first 100 request numbers are listed per canary, "count" has them all.

    """

  struct Options {
    var manifest: URL
    var port: UInt16 = 0
    var record: URL?
  }

  static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
    // Catch the signals before the base URL is printed: a caller may send one right after.
    let signals = TerminationSignals()
    return await run(arguments, io: io, until: { await signals.wait() })
  }

  /// Runs the command, stopping when `until` returns (tests pass their own trigger).
  static func run(_ arguments: [String], io: CommandIO, until stop: @Sendable () async -> Void) async -> Int32
  {
    if arguments.contains("--help") || arguments.contains("-h") {
      io.writeOutput(help)
      return ExitStatus.success
    }
    let options: Options
    let manifest: CanaryManifest
    do {
      options = try parse(arguments)
      manifest = try CanaryManifest(contentsOf: options.manifest)
    } catch {
      io.writeError("canary serve: \(error)\n")
      return ExitStatus.usage
    }
    var configuration = LoopbackServer.Configuration()
    configuration.port = options.port
    // The record is streamed; the server keeps only a bounded list of malformed requests.
    configuration.recordsRequests = false
    configuration.maxRecordedRequests = 1000
    let server = LoopbackServer(configuration: configuration)
    let script = ServeScript(canaries: manifest.canaries)
    for location in script.unsupported {
      io.writeError("canary serve: cannot plant \(location); it is listed but not served\n")
    }
    do {
      try server.start()
    } catch {
      io.writeError("canary serve: cannot listen on 127.0.0.1:\(options.port): \(error)\n")
      return ExitStatus.usage
    }
    let baseURL = server.baseURL
    let record: ServeRecord
    do {
      record = try ServeRecord(
        writingTo: options.record, io: io, baseURL: baseURL, canaries: manifest.canaries)
    } catch {
      server.stop()
      io.writeError("canary serve: \(error)\n")
      return ExitStatus.usage
    }
    server.observeRecord { record.observe($0) }
    server.setFallback { request in script.response(forPath: request.path, baseURL: baseURL) }
    io.writeOutput("\(baseURL.absoluteString)\n")
    await stop()
    server.stop()
    switch record.finish(counters: server.counters) {
    case .success(let summary):
      io.writeError(
        "canary serve: stopped after \(summary.requests) requests; "
          + "request-side canaries seen: \(summary.requestSeen) of \(summary.requestCanaries)\n")
    case .failure(let error):
      io.writeError("canary serve: \(error)\n")
      return ExitStatus.usage
    }
    return ExitStatus.success
  }

  /// A bad command line, described in one line.
  struct UsageError: Error, CustomStringConvertible {
    var description: String
  }

  static func parse(_ arguments: [String]) throws -> Options {
    var manifest: URL?
    var port: UInt16 = 0
    var record: URL?
    var index = 0
    func value(for option: String) throws -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(description: "\(option) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--manifest": manifest = URL(fileURLWithPath: try value(for: argument))
      case "--record": record = URL(fileURLWithPath: try value(for: argument))
      case "--port":
        let text = try value(for: argument)
        guard let number = UInt16(text) else {
          throw UsageError(description: "--port needs a number from 0 to 65535, not '\(text)'")
        }
        port = number
      default: throw UsageError(description: "unknown argument '\(argument)'; see 'canary serve --help'")
      }
      index += 1
    }
    guard let manifest else { throw UsageError(description: "--manifest FILE is required") }
    return Options(manifest: manifest, port: port, record: record)
  }
}
