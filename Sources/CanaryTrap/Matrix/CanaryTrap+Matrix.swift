import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension CanaryTrap {
  /// Runs every kind (requests of a kind in order, kinds concurrently) through `transport`,
  /// recording what was handed to it and what it returned, and proves each canary's delivery.
  ///
  /// Starts the scope if needed. A request the transport fails to send is recorded in the
  /// kind's errors and in the scope's report (which is then inconclusive), not thrown; only a
  /// kind whose planting throws or a scope that cannot start throws, and no request is sent then.
  /// That error stopped the run: it is the report's first problem, and the testing adapters
  /// record it first, once, with what it left undone summarised after it.
  ///
  /// The call's file and line are where every canary of the matrix counts as planted: a leak of
  /// one, or its failure to arrive, is reported at this call.
  @discardableResult
  public func runMatrix(
    through transport: Transport, kinds: [RequestKind] = RequestKind.all, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async throws -> MatrixResult {
    try await runMatrix(
      through: transport, kinds: kinds,
      plantedAt: ReportSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs the matrix with its canaries counted as planted at `site`.
  func runMatrix(through transport: Transport, kinds: [RequestKind], plantedAt site: ReportSourceLocation)
    async throws -> MatrixResult
  {
    try await start()
    let turn = await takeMatrixTurn()
    defer { if turn { MatrixTurns.shared.give() } }
    var planted: [(KindPlanter, [URLRequest])] = []
    for kind in kinds {
      let planter = KindPlanter(trap: self, kindName: kind.name, plantedAt: site)
      do {
        planted.append((planter, try kind.plant(planter)))
      } catch {
        let reason = (error as? KindPlantingError)?.reason ?? "\(error)"
        stop(because: .couldNotPlant(kind: kind.name, reason: reason), thrown: error, reachedTest: true)
        throw error
      }
    }
    prepareScanner()
    let requests = planted  // immutable from here: the batches below read it concurrently
    // Kinds that set cookies go last, so a session storing them cannot touch other kinds. Kinds
    // that fail on purpose go alongside both batches: the slowest waits out a timeout, and they
    // send nothing a cookie store touches.
    let alongside = requests.indices.filter { kinds[$0].failure != nil && !kinds[$0].setsCookies }
    async let failed = send(alongside, of: requests, kinds: kinds, through: transport)
    var runs: [(Int, MatrixResult.KindRun)] = []
    for settingCookies in [false, true] {
      let batch = requests.indices.filter {
        kinds[$0].setsCookies == settingCookies && !alongside.contains($0)
      }
      runs += await send(batch, of: requests, kinds: kinds, through: transport)
    }
    runs += await failed
    let kindRuns = runs.sorted { $0.0 < $1.0 }.map(\.1)
    let values = Set(kindRuns.flatMap { $0.canaries.map(\.value) })
    let deliveries = proveDelivery().filter { values.contains($0.canary.value) }
    return MatrixResult(kinds: kindRuns, deliveries: deliveries, report: nil)
  }

  /// Waits for this matrix's turn (see ``MatrixTurns``) and moves the scope's deadline later by the
  /// time it waited; returns whether it holds a turn to give back.
  private func takeMatrixTurn() async -> Bool {
    let began = ContinuousClock.now
    state.withLock { $0.turnWaitBegan = began }
    let turn = await MatrixTurns.shared.take()
    state.withLock { state in
      state.turnWaitBegan = nil
      if let deadline = state.deadline { state.deadline = deadline + (ContinuousClock.now - began) }
    }
    return turn
  }

  /// The scope's deadline, or `nil` when it has passed; a stall of the process that the deadline's
  /// watch has yet to see (it is overdue, waiting for a thread like this matrix was) is credited
  /// first, so the matrix never reads a deadline the watch would have moved.
  private func scopeDeadlineAhead() -> ContinuousClock.Instant? {
    let now = ContinuousClock.now
    let deadline = state.withLock { $0.creditStall(now: now) } ?? now + configuration.scopeDeadline
    return now < deadline ? deadline : nil
  }

  /// Runs the matrix in a fresh scope and returns the result with the scope's report attached.
  ///
  /// `transport` builds the app's transport in the scope, typically wiring the app's logger to
  /// `trap.memoryLog()` first; it may `await trap.addSink(_:)` for other sinks.
  /// The call's file and line are where every canary of the matrix counts as planted.
  package static func matrix(
    title: String, configuration: Configuration = Configuration(), kinds: [RequestKind] = RequestKind.all,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column, transport: (CanaryTrap) async throws -> Transport
  ) async -> MatrixResult {
    var matrix = MatrixResult(kinds: [], deliveries: [], report: nil)
    let site = ReportSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let (result, report) = await withScope(title: title, configuration: configuration) { trap in
      try await trap.runMatrix(through: try await transport(trap), kinds: kinds, plantedAt: site)
    }
    if case .success(let run) = result { matrix = run }
    return matrix.attaching(report)
  }

  /// Sends the kinds at `indices` of `planted` concurrently, each kind's requests in order.
  private func send(
    _ indices: [Int], of planted: [(KindPlanter, [URLRequest])], kinds: [RequestKind],
    through transport: Transport
  ) async -> [(Int, MatrixResult.KindRun)] {
    await withTaskGroup(of: (Int, MatrixResult.KindRun).self) { group in
      for index in indices {
        let (planter, requests) = planted[index]
        let failure = kinds[index].failure
        group.addTask {
          (index, await self.send(requests, of: planter, failing: failure, through: transport))
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
  }

  private func send(
    _ requests: [URLRequest], of planter: KindPlanter, failing failure: ExchangeFailure?,
    through transport: Transport
  ) async -> MatrixResult.KindRun {
    var errors: [String] = []
    var surfaced: [String] = []
    func fail(_ message: String) {
      errors.append(message)
      report(.requestFailed(message))
    }
    for (index, planted) in requests.enumerated() {
      let request = traced(planted)
      // Named only when something goes wrong: describing every request costs the matrix time.
      var name: String { "\(planter.kindName): request \(index + 1) (\(describe(request)))" }
      guard let scopeDeadline = scopeDeadlineAhead() else {
        fail("\(name) was not sent: the scope's deadline of \(configuration.scopeDeadline) had passed")
        continue
      }
      let requestDeadline = ContinuousClock.now + configuration.requestDeadline
      observe(request: request)
      let until = min(requestDeadline, scopeDeadline)
      let outcome =
        failure == .cancelled
        ? await sendCancellingOnArrival(request, through: transport, until: until, notAfter: scopeDeadline)
        : await Deadline.run(until: until, notAfter: scopeDeadline) { try await transport.send(request) }
      switch outcome {
      case .finished(.success(let (data, response))):
        observe(data, response)
        guard let failure else { continue }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if failure.acceptedStatuses.contains(status) {
          surfaced.append("returned \(status)")
        } else {
          fail("\(name) \(unsurfacedFailure(failure, status: status))")
        }
      case .finished(.failure(let error)):
        if failure != nil {
          surfaced.append("threw \(Self.label(error))")
        } else {
          fail("\(name) failed: \(masked(error))")
        }
      case .expired:
        let limit =
          requestDeadline <= scopeDeadline
          ? "within its deadline of \(configuration.requestDeadline)"
          : "before the scope's deadline of \(configuration.scopeDeadline)"
        fail("\(name) did not finish \(limit) and was cancelled; \(serverEvidence(for: request))")
      }
    }
    return MatrixResult.KindRun(
      name: planter.kindName, canaries: planter.canaries, errors: errors, failure: failure,
      surfacedFailures: surfaced)
  }

  /// What the scope's server saw of `request`, for a message about a request that never finished:
  /// whether it arrived, and whether the whole answer was handed to the kernel.
  func serverEvidence(for request: URLRequest) -> String {
    let method = request.httpMethod ?? "GET"
    guard let path = request.url?.path,
      let arrived = server.requests(to: path).last(where: { $0.method == method })
    else { return "the server never received it" }
    guard let answer = server.responses.first(where: { $0.requestSequence == arrived.sequence }) else {
      return "the server received it; no answer to it is on record"
    }
    if let fault = answer.fault { return "the server received it and broke its answer on purpose (\(fault))" }
    return answer.fullyWritten
      ? "the server received it and wrote its whole \(answer.status) answer"
      : "the server received it and did not finish writing its \(answer.status) answer"
  }

  /// The request with the tracer also in the places a sane logger keeps besides the route: an
  /// `X-Request-ID` header and the `User-Agent`, unless the kind set them itself.
  private func traced(_ request: URLRequest) -> URLRequest {
    var traced = request
    if traced.value(forHTTPHeaderField: "X-Request-ID") == nil {
      traced.setValue(tracer, forHTTPHeaderField: "X-Request-ID")
    }
    if traced.value(forHTTPHeaderField: "User-Agent") == nil {
      traced.setValue("CanaryTrap (\(tracer))", forHTTPHeaderField: "User-Agent")
    }
    return traced
  }

  /// `METHOD /path` with the tracer shown as `{tracer}` and every path segment holding a canary as
  /// `{canary}`, so a message names the request the same way in every run and carries no canary.
  func describe(_ request: URLRequest) -> String {
    let values = canaries.canaries.map(\.value)
    let path = (request.url?.path ?? "?").split(separator: "/", omittingEmptySubsequences: false).map {
      segment -> String in
      let text = String(segment)
      let decoded = text.removingPercentEncoding ?? text
      if decoded == tracer { return "{tracer}" }
      return values.contains { decoded.contains($0) || text.contains($0) } ? "{canary}" : text
    }.joined(separator: "/")
    return "\(request.httpMethod ?? "GET") \(path)"
  }
}
