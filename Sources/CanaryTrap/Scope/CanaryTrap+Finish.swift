import Foundation

extension CanaryTrap {
  /// Ends the run: stops the server, collects and scans every sink, marks sinks that heard
  /// nothing of the run as silent (see <doc:Sinks>), proves every canary's delivery and returns the report.
  ///
  /// Calling it again returns the same report.
  package func finish() async -> LeakReport {
    let task = state.withLock { state -> Task<LeakReport, Never> in
      if let finishing = state.finishing { return finishing }
      state.phase = .finishing
      state.deadlineWatch?.cancel()
      let task = Task { await self.makeReport() }
      state.finishing = task
      return task
    }
    return await task.value
  }

  /// Runs `action` when the scope finishes, after its server stops and before its sinks are read
  /// (at once when it already finished): how a kind takes back what it planted outside the
  /// scope, such as a cookie in a storage other scopes share.
  func whenFinishing(_ action: @escaping @Sendable () -> Void) {
    let isFinishing = state.withLock { state -> Bool in
      guard state.phase != .finishing else { return true }
      state.finishingActions.append(action)
      return false
    }
    if isFinishing { action() }
  }

  private func makeReport() async -> LeakReport {
    server.stop()
    let (sinks, pending, actions) = state.withLock { ($0.sinks, $0.pendingBegins, $0.finishingActions) }
    for action in actions { action() }
    for task in pending { await task.value }
    let deliveries = proveDelivery()
    if let reason = ScopeCoverage(planted: canaries.canaries.count).inconclusiveReason {
      report(reason)
    }
    let scanner = await scanner()
    let tracerWasSent = server.requests.contains { request in
      request.target.contains(tracer) || request.headers.fields.contains { $0.value.contains(tracer) }
    }
    var findings: [LeakFinding] = []
    var sources: [ScannedSource] = []
    for registered in sinks {
      let sink = registered.sink
      let shared = SinkWindowLedger.shared.overlapped(registered.window, on: sink)
      do {
        let contents = try await sink.collect(registered.window)
        var scanned: [ScannedSource] = []
        var heardTracerOrCanary = false
        for content in contents {
          let (found, source) = scanner.scan(
            SinkContent(name: stableName(content.name), storage: content.storage))
          findings += found.filter { $0.canary.value != tracer }
          heardTracerOrCanary = heardTracerOrCanary || !found.isEmpty
          scanned.append(source)
        }
        if !registered.isAmbient {
          let hearing = SinkHearing(
            rule: sink.hearingRule, sharedWithAnotherScope: shared, heardTracerOrCanary: heardTracerOrCanary,
            bytes: scanned.reduce(0) { $0 + $1.bytes }, tracer: tracer, tracerWasSent: tracerWasSent)
          scanned = hearing.judge(scanned, sinkName: sink.name)
        }
        if let dropping = sink as? any DroppingSink,
          let reason = dropping.droppedReason(in: registered.window)
        {
          scanned = Self.failing(scanned, sinkName: sink.name, reason: reason)
        }
        sources += scanned
      } catch {
        sources.append(
          ScannedSource(name: sink.name, bytes: 0, status: .failed(reason: "collecting it threw: \(error)")))
      }
      await sink.end(registered.window)
      SinkWindowLedger.shared.closed(registered.window, on: sink)
    }
    findings += HeldSecretProof.wireFindings(
      of: canaries.canaries, in: server.requests, options: configuration.scanOptions)
    let counters = server.counters
    if !counters.recordIsComplete {
      report(
        .recordIncomplete(requestsDropped: counters.requestsDropped, bytesDropped: counters.bytesDropped))
    }
    for (index, entry) in configuration.knownLeaks.enumerated() {
      if let problem = LeakBaseline.entryProblem(entry) {
        report(.unusableKnownLeak(index: index, entry: "\(entry)", problem: problem))
      }
    }
    let sites = plantingSites
    for index in findings.indices { findings[index].plantedAt = sites[findings[index].canary.value] }
    let errors = state.withLock { $0.errors }
    var report = LeakReport(
      title: title, canaries: canaries.canaries, findings: findings, sources: sources,
      deliveries: deliveries, runErrors: errors, sourceLocation: sourceLocation)
    report.run = ReportRun.endingNow(startedAt: createdAt)
    report.stopCause = stopCause
    if !configuration.usableKnownLeaks.isEmpty {
      // One scope cannot call an entry stale: another test of the run may match it.
      report.baseline = BaselineUse(report, knownLeaks: configuration.usableKnownLeaks, coversWholeRun: false)
    }
    writeReportIfAsked(report)
    return report
  }

  /// `scanned` with every content marked failed for `reason` (one failed entry named after the
  /// sink when it returned none): what the sink dropped was never scanned, so it cannot be clean.
  static func failing(_ scanned: [ScannedSource], sinkName: String, reason: String) -> [ScannedSource] {
    guard !scanned.isEmpty else {
      return [ScannedSource(name: sinkName, bytes: 0, status: .failed(reason: reason))]
    }
    return scanned.map { source in
      var failed = source
      failed.status = .failed(reason: reason)
      return failed
    }
  }

  /// `name` with this run's server address written `{server}`, its tracer `{tracer}` and each of
  /// its canaries `{canary}` (a URL cache names entries by URL), so a name reads the same in
  /// every run and never holds a secret.
  func stableName(_ name: String) -> String {
    var stable = name
    for (text, label) in [(baseURL.absoluteString, "{server}"), (tracer, "{tracer}")]
    where stable.contains(text) {
      stable = stable.replacingOccurrences(of: text, with: label)
    }
    for value in canaries.canaries.map(\.value) {
      let forms =
        [value]
        + [CharacterSet.urlQueryAllowed, .urlPathAllowed, .alphanumerics].compactMap {
          value.addingPercentEncoding(withAllowedCharacters: $0)
        }
      for form in Set(forms) where stable.contains(form) {
        stable = stable.replacingOccurrences(of: form, with: "{canary}")
      }
    }
    return stable
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
