import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `canary scan --files-from FILE`: the paths to scan read from a file or standard input, so a
/// shard worker under a distributed engine is handed paths, not content, and every finding keeps
/// its file and line.
enum ScanFileList {
  static let option = Option<ScanPath?>.path(
    "--files-from",
    help:
      "Also scan every path listed in FILE (- for standard input), one a line, or NUL-separated when"
      + " the list holds a NUL (find -print0); empty entries are skipped. At most"
      + " \(maximumBytes >> 20) MiB of list.")

  /// Why a list naming no path proves nothing: the run is inconclusive, never clean.
  static let emptyReason = "the list names no path: nothing was looked at"

  /// The most bytes of list read: about two million paths of a hundred bytes.
  static let maximumBytes = 256 << 20

  /// A list that could not be read, or is too long; exit 2.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The paths listed at `path` (`-` is standard input), in order.
  static func paths(from path: ScanPath, wait: Duration, io: CommandIO) throws -> [ScanPath] {
    let data = try readList(path, wait: wait, io: io)
    let separator: UInt8 = data.contains(0) ? 0 : UInt8(ascii: "\n")
    return data.split(separator: separator).compactMap { entry in
      var bytes = Array(entry)
      if separator != 0, bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
      return bytes.isEmpty ? nil : ScanPath(bytes: bytes)
    }
  }

  private static func readList(_ path: ScanPath, wait: Duration, io: CommandIO) throws -> Data {
    let name = "--files-from \(path.displayName)"
    var data = Data()
    func append(_ chunk: Data) throws {
      guard data.count + chunk.count <= maximumBytes else {
        throw Failure(
          description: "\(name) lists more than \(maximumBytes >> 20) MiB of paths; split the list into"
            + " shards")
      }
      data.append(chunk)
    }
    if path.bytes == Array("-".utf8) {
      while true {
        let chunk: Data
        do { chunk = try io.readInput() } catch {
          throw Failure(description: "cannot read \(name): \(error)")
        }
        if chunk.isEmpty { return data }
        try append(chunk)
      }
    }
    let fd: Int32
    do throws(BoundedOpen.Failure) {
      fd = try BoundedOpen.forReading(path.bytes, wait: wait)
    } catch {
      throw Failure(description: "cannot read \(name): \(error)")
    }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "cannot read \(name): \(String(cString: strerror(errno)))")
      }
      if count == 0 { return data }
      try append(Data(buffer[0..<count]))
    }
  }
}

extension ScanRun {
  /// A run of a `--files-from` list that named nothing gets one silent source saying so, so the
  /// shard is inconclusive, never clean.
  mutating func sayNothingWasListed(by list: ScanPath?) {
    guard let list, sources.isEmpty else { return }
    sources = [
      ScannedSource(
        name: "--files-from \(list.displayName)", bytes: 0, status: .silent(reason: ScanFileList.emptyReason))
    ]
    listedPerSource = [0]
  }
}
