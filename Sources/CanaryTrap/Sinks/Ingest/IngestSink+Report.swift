import Foundation

extension IngestSink {
  /// Every upload kept since the sink was created, scanned for `canaries` as a scope scans a sink:
  /// silent when nothing arrived, failed when uploads were dropped or could not be opened (what
  /// `canary serve --ingest` writes when it stops).
  package func report(title: String, canaries: [Canary], options: ScanOptions = ScanOptions()) async
    -> LeakReport
  {
    let window = SinkWindow.next()
    let scanner = LeakScanner(canaries: canaries, options: options)
    var findings: [LeakFinding] = []
    var sources: [ScannedSource] = []
    do {
      try beginImmediately(window)
      // The whole life of the sink: every upload, and every drop, since it was created.
      storage.withLock { $0.windows[window] = Window(start: 0, dropped: Dropped()) }
      for content in try await collect(window) {
        let (found, source) = scanner.scan(content)
        findings += found
        sources.append(source)
      }
      let hearing = SinkHearing(
        rule: hearingRule, sharedWithAnotherScope: false, heardTracerOrCanary: !findings.isEmpty,
        bytes: sources.reduce(0) { $0 + $1.bytes }, tracer: "", tracerWasSent: true)
      sources = hearing.judge(sources, sinkName: name)
      if let reason = droppedReason(in: window) {
        sources = CanaryTrap.failing(sources, sinkName: name, reason: reason)
      }
    } catch {
      sources.append(
        ScannedSource(name: name, bytes: 0, status: .failed(reason: "reading it threw: \(error)")))
    }
    await end(window)
    return LeakReport(title: title, canaries: canaries, findings: findings, sources: sources)
  }
}
