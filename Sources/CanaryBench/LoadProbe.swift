import CanaryCLI
import Foundation

/// Measurements the load benchmark takes from outside the server: descriptors and `wrk`.
enum LoadProbe {
  /// Descriptors a later round may add without counting as a leak (dispatch may still be
  /// retiring a timer or a worker's epoll handle).
  static let steadyStateAllowance = 4

  /// The number of descriptors this process has open (`/proc/self/fd`, or `/dev/fd` elsewhere).
  static func openDescriptors() -> Int {
    for directory in ["/proc/self/fd", "/dev/fd"] {
      if let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) {
        return entries.count - 1  // the directory listing's own descriptor
      }
    }
    return -1
  }

  /// Open descriptors grouped by kind (`socket`, `pipe`, `anon_inode:[eventpoll]`, files), such
  /// as `socket 3, pipe 2`; empty where `/proc` is missing.
  static func descriptorKinds() -> String {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else {
      return ""
    }
    var kinds: [String: Int] = [:]
    for entry in entries {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")
      else { continue }
      let kind = target.hasPrefix("/") ? "file" : String(target.prefix { $0 != ":" && $0 != "[" })
      kinds[target.hasPrefix("anon_inode") ? target : kind, default: 0] += 1
    }
    return kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
  }

  /// The TCP sockets this process holds, as `local->remote state` from `/proc/net/tcp`.
  static func openSockets() -> [String] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else {
      return []
    }
    let inodes = Set(
      entries.compactMap { entry -> String? in
        guard
          let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
          target.hasPrefix("socket:[")
        else { return nil }
        return String(target.dropFirst(8).dropLast())
      })
    var sockets: [String] = []
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
      guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
      for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        guard fields.count > 9, inodes.contains(String(fields[9])) else { continue }
        let port = { (field: Substring) in
          field.split(separator: ":").last.flatMap { Int($0, radix: 16) } ?? 0
        }
        sockets.append("\(port(fields[1]))->\(port(fields[2])) state \(fields[3])")
      }
    }
    return sockets
  }

  /// Runs `wrk` against `url` and returns its figures, or why it could not run.
  static func runWrk(url: String, connections: Int, seconds: Int) -> String {
    guard
      let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk", "/opt/homebrew/bin/wrk"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      return "wrk: not installed (apt-get install wrk); skipped"
    }
    #if os(macOS) || os(Linux)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: wrk)
      process.arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", url]
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = pipe
      do {
        try process.run()
      } catch {
        return "wrk: could not start: \(error)"
      }
      let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      let interesting = output.split(separator: "\n").filter {
        $0.contains("Requests/sec") || $0.contains("requests in") || $0.contains("Socket errors")
          || $0.contains("Non-2xx") || $0.contains("Latency")
      }
      return "wrk -t2 -c\(connections) -d\(seconds)s: "
        + interesting.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        + (process.terminationStatus == 0 ? "" : " (wrk exit \(process.terminationStatus))")
    #else
      return "wrk: \(ChildProcessSupport.Unavailable(tool: wrk)); skipped"
    #endif
  }
}
