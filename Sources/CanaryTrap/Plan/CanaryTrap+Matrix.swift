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
  /// kind whose planting throws or a scope that cannot start throws.
  @discardableResult
  public func runMatrix(through transport: Transport, kinds: [RequestKind] = RequestKind.all) async throws
    -> MatrixResult
  {
    try await start()
    var planted: [(KindPlanter, [URLRequest])] = []
    for kind in kinds {
      let planter = KindPlanter(trap: self, kindName: kind.name)
      planted.append((planter, try kind.plant(planter)))
    }
    // Kinds that set cookies go last, so a session storing them cannot touch other kinds.
    var runs: [(Int, MatrixResult.KindRun)] = []
    for settingCookies in [false, true] {
      let batch = planted.enumerated().filter { kinds[$0.offset].setsCookies == settingCookies }
      runs += await withTaskGroup(of: (Int, MatrixResult.KindRun).self) { group in
        for (index, (planter, requests)) in batch {
          group.addTask { (index, await self.send(requests, of: planter, through: transport)) }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
    }
    let kindRuns = runs.sorted { $0.0 < $1.0 }.map(\.1)
    let values = Set(kindRuns.flatMap { $0.canaries.map(\.value) })
    let deliveries = proveDelivery().filter { values.contains($0.canary.value) }
    return MatrixResult(kinds: kindRuns, deliveries: deliveries, report: nil)
  }

  /// Runs the matrix in a fresh scope and returns the result with the scope's report attached.
  ///
  /// `transport` builds the app's transport in the scope, typically wiring the app's logger to
  /// `trap.memoryLog()` first.
  public static func matrix(
    title: String, configuration: Configuration = Configuration(), kinds: [RequestKind] = RequestKind.all,
    transport: (CanaryTrap) throws -> Transport
  ) async -> MatrixResult {
    var matrix = MatrixResult(kinds: [], deliveries: [], report: nil)
    let (result, report) = await withScope(title: title, configuration: configuration) { trap in
      try await trap.runMatrix(through: try transport(trap), kinds: kinds)
    }
    if case .success(let run) = result { matrix = run }
    return matrix.attaching(report)
  }

  private func send(_ requests: [URLRequest], of planter: KindPlanter, through transport: Transport) async
    -> MatrixResult.KindRun
  {
    var errors: [String] = []
    for (index, request) in requests.enumerated() {
      observe(request: request)
      do {
        let (data, response) = try await transport.send(request)
        observe(data, response)
      } catch {
        let message =
          "\(planter.kindName): request \(index + 1) (\(request.httpMethod ?? "GET") \(request.url?.path ?? "?")) failed: \(error)"
        errors.append(message)
        reportError(message)
      }
    }
    return MatrixResult.KindRun(name: planter.kindName, canaries: planter.canaries, errors: errors)
  }
}
