import Foundation

extension CanaryTrap {
  /// Ends the run: stops the server, collects and scans every sink, marks sinks that heard
  /// nothing of the run as silent, proves every canary's delivery and returns the report.
  ///
  /// Calling it again returns the same report.
  public func finish() async -> LeakReport {
    let task = state.withLock { state -> Task<LeakReport, Never> in
      if let finishing = state.finishing { return finishing }
      state.phase = .finishing
      let task = Task { await self.makeReport() }
      state.finishing = task
      return task
    }
    return await task.value
  }

  private func makeReport() async -> LeakReport {
    server.stop()
    let (sinks, pending) = state.withLock { ($0.sinks, $0.pendingBegins) }
    for task in pending { await task.value }
    let deliveries = proveDelivery()
    let tracerCanary = Canary(value: tracer, location: .custom("tracer"))
    let scanner = LeakScanner(
      canaries: canaries.canaries + [tracerCanary], options: configuration.scanOptions)
    let tracerWasSent = server.requests.contains { $0.target.contains(tracer) }
    var findings: [LeakFinding] = []
    var sources: [ScannedSource] = []
    for registered in sinks {
      let sink = registered.sink
      do {
        let contents = try await sink.collect()
        if contents.isEmpty && !registered.isAmbient {
          sources.append(
            ScannedSource(name: sink.name, bytes: 0, status: .silent(reason: "the sink returned no content")))
        }
        for content in contents {
          let (found, source) = scanner.scan(content)
          let leaks = found.filter { $0.canary.value != tracer }
          findings += leaks
          sources.append(
            judged(
              source, heardSomething: !found.isEmpty, ambient: registered.isAmbient,
              tracerWasSent: tracerWasSent))
        }
      } catch {
        sources.append(
          ScannedSource(name: sink.name, bytes: 0, status: .failed(reason: "collecting it threw: \(error)")))
      }
      await sink.end()
    }
    findings += HeldSecretProof.wireFindings(
      of: canaries.canaries, in: server.requests, options: configuration.scanOptions)
    let errors = state.withLock { $0.errors }
    let report = LeakReport(
      title: title, canaries: canaries.canaries, findings: findings, sources: sources,
      deliveries: deliveries, errors: errors, sourceLocation: sourceLocation)
    writeReportIfAsked(report)
    return report
  }

  /// Whether a scanned source heard the run: it holds the tracer or a canary, or, when the run
  /// never sent the tracer, any byte at all.
  private func judged(_ source: ScannedSource, heardSomething: Bool, ambient: Bool, tracerWasSent: Bool)
    -> ScannedSource
  {
    guard source.status == .heard, !ambient, !heardSomething else { return source }
    var judged = source
    if tracerWasSent {
      judged.status = .silent(
        reason: "it captured \(source.bytes) bytes but none of this run's tracer \(tracer) nor any canary")
    } else if source.bytes == 0 {
      judged.status = .silent(reason: "it captured nothing during the run")
    }
    return judged
  }

  /// Writes the report in every format to the configured directory under a unique name.
  private func writeReportIfAsked(_ report: LeakReport) {
    guard let directory = configuration.reportDirectory else { return }
    do {
      try report.writeUniquely(to: directory, name: title)
    } catch {
      FileHandle.standardError.write(Data("CanaryTrap: cannot write the report of \(title): \(error)\n".utf8))
    }
  }
}
