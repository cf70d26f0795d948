import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One test's canary trap: its canaries, its own loopback server and the sinks it reads.
///
/// Plant canaries with ``canary(_:at:fileID:filePath:line:column:)``, point the app's real
/// transport at ``baseURL``, hand the app's logger a ``memoryLog(_:limit:)``, and end with
/// `finish()`: every sink is scanned for
/// every canary in every encoding, every canary's delivery is proven, and a ``LeakReport`` says
/// what leaked where. Many scopes run in parallel in one process without seeing each other's
/// traffic, because each owns its server, its canaries and its sinks.
public final class CanaryTrap: Sendable {
  /// The scope of the test running on this task, set by the testing adapters (the `.canaryTrap`
  /// trait, `CanaryTrapTestCase` and `withCanaryTrap`).
  @TaskLocal public static var current: CanaryTrap?

  /// The report's title, such as the test's name.
  package let title: String
  /// How the scope scans and which sinks it reads.
  public let configuration: Configuration
  /// Where in the user's tests the scope was written, when known.
  package let sourceLocation: ReportSourceLocation?
  /// The scope's own loopback server; script its routes with `server.on(…)`.
  public let server: LoopbackServer
  /// Every canary planted in this scope.
  package let canaries: CanarySet
  /// A harmless marker unique to this scope, planted where a sane logger prints it (the first
  /// path segment of every matrix request) so that a sink that recorded nothing of the run is
  /// reported silent; see ``RequestKind`` for the URL convention.
  public let tracer: String

  let state = Locked(ScopeState())
  /// When the scope was created; reports give it as the run's start.
  let createdAt = Date()

  /// Creates a scope; call `start()` before sending requests to ``baseURL``.
  package init(
    title: String, configuration: Configuration = Configuration(),
    sourceLocation: ReportSourceLocation? = nil
  ) {
    self.title = title
    self.configuration = configuration
    self.sourceLocation = sourceLocation
    self.server = LoopbackServer(configuration: configuration.server)
    self.canaries = CanarySet()
    self.tracer = "trace-" + CanaryGenerator().randomSymbols(12)
    state.withLock { state in
      for sink in configuration.sinks { _ = state.register(sink, isAmbient: false) }
      if configuration.captureStandardStreams { _ = state.register(StandardStreamsSink(), isAmbient: true) }
    }
  }

  /// The loopback server's base URL, `http://127.0.0.1:PORT` (no trailing slash).
  public var baseURL: URL { server.baseURL }

  /// Mints a canary of `shape` for `location`, registers it for delivery proof at that location,
  /// and returns its value.
  ///
  /// A request-side canary is proven by what the scope's server received at that location. A
  /// response-side one is proven by the responses handed to ``observe(_:_:)`` (the matrix does
  /// this itself); when the scope observed no response at all, the server having answered a
  /// request is taken as the (weaker) proof.
  ///
  /// The call's file and line are remembered as where the canary was planted: a leak of it, or
  /// its failure to arrive, is reported there (``LeakFinding/plantedAt``).
  public func canary(
    _ shape: CanaryShape, at location: CanaryLocation, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) -> String {
    plant(
      shape, at: location, proof: .atLocation,
      site: ReportSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Mints a canary whose delivery is proven by `proof` instead of its location, remembering the
  /// call's file and line as where it was planted.
  public func canary(
    _ shape: CanaryShape, at location: CanaryLocation, proof: DeliveryProof, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) -> String {
    plant(
      shape, at: location, proof: proof,
      site: ReportSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Mints a canary proven by `proof`, planted at `site` in the user's code when known.
  func plant(
    _ shape: CanaryShape, at location: CanaryLocation, proof: DeliveryProof, site: ReportSourceLocation?
  ) -> String {
    let canary = canaries.mint(shape, at: location)
    state.withLock { state in
      state.proofs[canary.value] = proof
      if let site { state.plantingSites[canary.value] = site }
    }
    return canary.value
  }

  /// Where in the user's code each canary was planted, by value, when known.
  var plantingSites: [String: ReportSourceLocation] { state.withLock { $0.plantingSites } }

  /// Creates a memory log, registers it as a sink of this scope and returns it.
  ///
  /// The log belongs to this run alone: everything written to it from now on is scanned, and any
  /// byte written to it proves it heard the run (see ``HearingRule/anyByteDuringScope``). A write
  /// past `limit` is dropped, and the run cannot then be clean.
  public func memoryLog(_ name: String = "memory-log", limit: MemoryLog.Limit = .default) -> MemoryLog {
    let log = MemoryLog(name: name, limit: limit)
    guard let registered = state.withLock({ $0.register(log, isAmbient: false) }) else { return log }
    beginNow(registered)
    return log
  }

  /// Registers a sink read when the scope finishes; when the scope has started, begins it and
  /// returns only once it is fully begun, so everything written afterwards is scanned.
  ///
  /// A sink that fails to begin is reported (the run is then inconclusive), not thrown. Adding
  /// the same instance twice reads it once.
  public func addSink(_ sink: any LeakSink) async {
    guard let registered = register(sink) else { return }
    await begin(registered)
  }

  /// Registers a sink read when the scope finishes, from synchronous code; when the scope has
  /// started, begins it before returning.
  ///
  /// Every sink of this package begins without suspending. A sink of your own whose
  /// ``LeakSink/begin(_:)`` must suspend cannot be fully begun here: it begins in the background
  /// and the run is reported inconclusive, because what the app wrote meanwhile may be missed.
  /// Call `await addSink(_:)` or list it in the ``Configuration`` instead.
  public func addSink(_ sink: any LeakSink) {
    guard let registered = register(sink) else { return }
    if sink is any ImmediatelyBeginningSink {
      beginNow(registered)
      return
    }
    report(.sinkBeganLate(sink: sink.name))
    let task = Task { await self.begin(registered) }
    state.withLock { $0.pendingBegins.append(task) }
  }

  /// Registers `sink`; returns the registration when it must be begun now (the scope has started).
  private func register(_ sink: any LeakSink) -> RegisteredSink? {
    state.withLock { state -> RegisteredSink? in
      guard let registered = state.register(sink, isAmbient: false) else { return nil }
      return state.phase == .created ? nil : registered
    }
  }

  /// Begins a registered sink unless it already was, reporting a failure.
  func begin(_ registered: RegisteredSink) async {
    guard state.withLock({ $0.claimBegin(registered.window) }) else { return }
    do {
      try await registered.sink.begin(registered.window)
      SinkWindowLedger.shared.opened(registered.window, on: registered.sink)
    } catch {
      report(.sinkFailedToBegin(sink: registered.sink.name, reason: "\(error)"))
    }
  }

  /// Begins a sink that needs no suspension, now, unless it already was.
  private func beginNow(_ registered: RegisteredSink) {
    guard let sink = registered.sink as? any ImmediatelyBeginningSink,
      state.withLock({ $0.claimBegin(registered.window) })
    else { return }
    do {
      try sink.beginImmediately(registered.window)
      SinkWindowLedger.shared.opened(registered.window, on: sink)
    } catch {
      report(.sinkFailedToBegin(sink: sink.name, reason: "\(error)"))
    }
  }

  /// Records a problem that makes the run inconclusive, such as a request the app failed to send.
  package func reportError(_ message: String) {
    report(.other(message))
  }

  /// Records a problem that makes the run inconclusive.
  package func report(_ error: RunError) {
    state.withLock { $0.errors.append(error) }
  }

  /// Records a request handed to the transport under test (the matrix does this itself).
  public func observe(request: URLRequest) {
    let sent = SentRequest(request)
    state.withLock { $0.sent.append(sent) }
  }

  /// Records what the transport under test returned, so response-side canaries are proven
  /// against what the app really received (the matrix does this itself).
  public func observe(_ data: Data, _ response: URLResponse) {
    let returned = ObservedResponse(data: data, response: response)
    state.withLock { $0.returned.append(returned) }
  }

  /// Starts the server and begins every sink; a sink that fails to begin is reported, not thrown.
  ///
  /// A server that cannot start is thrown, here and from every later call (``runMatrix(through:kinds:fileID:filePath:line:column:)``
  /// starts the scope too), and is the report's first problem: nothing of the run can be judged.
  package func start() async throws {
    do {
      try await startForAdapter()
    } catch {
      state.withLock { $0.stopCause?.reachedTest = true }
      throw error
    }
  }

  /// Starts the scope as ``start()`` does, for an adapter that records the failure itself: the
  /// error is not counted as thrown to the test.
  package func startForAdapter() async throws {
    let sinks = try state.withLock { state -> [RegisteredSink]? in
      if let failure = state.startFailure { throw failure }
      guard state.phase == .created else { return nil }
      state.phase = .started
      state.deadline = .now + configuration.scopeDeadline
      return state.sinks
    }
    guard let sinks else { return }
    do {
      try server.start()
    } catch {
      state.withLock { $0.startFailure = error }
      stop(because: .couldNotStart(reason: "\(error)"), thrown: error)
      throw error
    }
    watchDeadline()
    for registered in sinks { await begin(registered) }
  }

  /// Records what stopped the run before it could be judged, as an error of the report and, unless
  /// something stopped it before, as its cause; `thrown` is the error thrown for it, and
  /// `reachedTest` whether it was thrown to the test's own code.
  func stop(because cause: RunError, thrown: any Error, reachedTest: Bool = false) {
    state.withLock { state in
      state.errors.append(cause)
      if state.stopCause == nil {
        state.stopCause = StopCause(error: cause, thrown: thrown, reachedTest: reachedTest)
      }
    }
  }

  /// What stopped the run before it could be judged, when something did.
  package var stopCause: RunError? { state.withLock { $0.stopCause?.error } }

  /// Whether `error` is the very error thrown when the run was stopped (see ``stopCause``): the
  /// same instance, or an equal value of the same type; never judged by its description.
  package func isStopCause(_ error: any Error) -> Bool {
    guard let cause = state.withLock({ $0.stopCause }) else { return false }
    return ErrorIdentity.same(cause.thrown, error)
  }

  /// Whether the error that stopped the run was thrown to the test's own code, which a test
  /// framework then records when the test lets it through.
  package var stopCauseReachedTest: Bool { state.withLock { $0.stopCause?.reachedTest ?? false } }

  /// The error thrown when the run was stopped, when something stopped it.
  package var thrownStopCause: (any Error)? { state.withLock { $0.stopCause?.thrown } }

  /// The evidence gathered so far: what the server received and answered, and what the
  /// transport saw.
  package var evidence: DeliveryEvidence {
    let (sent, returned) = state.withLock { ($0.sent, $0.returned) }
    return DeliveryEvidence(
      received: server.requests, sent: sent, returned: returned, answered: server.responses,
      webSockets: server.webSockets)
  }

  /// The delivery status of every canary planted so far, from the evidence gathered so far.
  package func proveDelivery() -> [CanaryDelivery] {
    let evidence = self.evidence
    let (proofs, sites) = state.withLock { ($0.proofs, $0.plantingSites) }
    return canaries.canaries.map { canary in
      let proof = proofs[canary.value] ?? .atLocation
      var delivery = CanaryDelivery(canary: canary, status: proof.check(canary, evidence))
      delivery.plantedAt = sites[canary.value]
      return delivery
    }
  }
}
