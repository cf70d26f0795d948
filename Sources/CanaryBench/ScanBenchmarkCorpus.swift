import CanaryCLI
import CanaryTrap
import Foundation

/// Writes the synthetic log `canary-bench scan` measures: timestamps, levels, request lines with
/// paths and hex ids, JSON bodies, base64 blobs, stack-trace-like lines, and a few planted
/// canaries so there is something to find.
struct ScanBenchmarkCorpus {
  /// What was planted, to check the scanner found it.
  struct Plant {
    let canary: Canary
    let encoding: String
  }

  /// A small deterministic generator (SplitMix64), so runs are comparable.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let paths = [
    "/v1/users", "/v1/users/me/profile", "/api/orders", "/api/orders/search", "/static/app.js",
    "/auth/refresh", "/graphql", "/v2/payments/intents", "/health", "/metrics",
  ]
  static let words = [
    "request", "response", "cache", "miss", "hit", "retry", "timeout", "connection", "pool",
    "session", "upload", "download", "redirect", "decoded", "encoder", "failed", "completed",
  ]

  /// Writes about `megabytes` MB of log lines to `url` with `plants` planted once each.
  static func write(to url: URL, megabytes: Int, plants: [(Canary, String, String)]) throws -> [Plant] {
    var random = Generator(state: 2026)
    let pool = (0..<20_000).map { _ in line(&random) }
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let target = megabytes << 20
    var written = 0
    var block = ""
    block.reserveCapacity(4 << 20)
    let plantEvery = max(1, target / max(plants.count, 1))
    var nextPlant = plantEvery / 2
    var planted: [Plant] = []
    while written < target {
      block.removeAll(keepingCapacity: true)
      while block.utf8.count < 4 << 20 {
        block += pool[Int.random(in: 0..<pool.count, using: &random)]
        if written + block.utf8.count >= nextPlant, planted.count < plants.count {
          let (canary, encoding, text) = plants[planted.count]
          block += "2026-11-29T19:00:00.000Z DEBUG leaked \(text) while logging\n"
          planted.append(Plant(canary: canary, encoding: encoding))
          nextPlant += plantEvery
        }
      }
      try handle.write(contentsOf: Data(block.utf8))
      written += block.utf8.count
    }
    return planted
  }

  static func hex(_ count: Int, _ random: inout Generator) -> String {
    String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &random)! })
  }

  static func base64(_ count: Int, _ random: inout Generator) -> String {
    Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }).base64EncodedString()
  }

  /// One realistic log line.
  static func line(_ random: inout Generator) -> String {
    let time = String(
      format: "2026-11-29T%02d:%02d:%02d.%03dZ", Int.random(in: 0..<24, using: &random),
      Int.random(in: 0..<60, using: &random), Int.random(in: 0..<60, using: &random),
      Int.random(in: 0..<1000, using: &random))
    let level = ["INFO ", "DEBUG", "WARN ", "ERROR", "TRACE"].randomElement(using: &random)!
    let path = paths.randomElement(using: &random)!
    let word = words.randomElement(using: &random)!
    switch Int.random(in: 0..<6, using: &random) {
    case 0:
      return
        "\(time) \(level) GET \(path)/\(Int.random(in: 1...99999, using: &random))?trace=\(hex(16, &random)) 200 \(Int.random(in: 1...900, using: &random))ms\n"
    case 1:
      return
        "\(time) \(level) body={\"id\":\"\(hex(24, &random))\",\"status\":\"\(word)\",\"count\":\(Int.random(in: 0...500, using: &random)),\"tags\":[\"\(word)\",\"x\"]}\n"
    case 2:
      return "\(time) \(level) \(word) payload=\(base64(Int.random(in: 24...120, using: &random), &random))\n"
    case 3:
      return
        "\(time) \(level) req=\(UUID(uuid: (UInt8.random(in: 0...255, using: &random), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)).uuidString.lowercased()) \(word) in /Users/dev/App/Sources/\(word.capitalized)Manager.swift:\(Int.random(in: 1...900, using: &random))\n"
    case 4:
      return
        "\(time) \(level) headers: Accept=application/json; User-Agent=App/4.2 (iPhone; iOS 17.1); X-Request-Id=\(hex(32, &random))\n"
    default:
      return
        "\(time) \(level) \(word) \(words.randomElement(using: &random)!) \(words.randomElement(using: &random)!) sha=\(hex(64, &random))\n"
    }
  }
}
