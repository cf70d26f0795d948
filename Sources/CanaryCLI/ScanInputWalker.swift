import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Expands the PATH arguments of `canary scan` into files: directories are walked recursively in
/// name order, symbolic links are followed, and a directory already visited (a link loop) is
/// skipped. Inside a directory only regular files are scanned (never FIFOs or devices, which could
/// block); a path named on the command line is read whatever its type.
struct ScanInputWalker {
  /// One input to scan.
  enum Input: Equatable {
    /// A file to stream, with the name findings use.
    case file(path: String)
    /// Standard input.
    case standardInput
    /// A path that cannot be read, with a one-line reason.
    case unreadable(path: String, reason: String)
  }

  private var visited: Set<[UInt64]> = []

  /// The inputs named by `paths`, in order.
  mutating func inputs(for paths: [String]) -> [Input] {
    var result: [Input] = []
    for path in paths {
      if path == "-" {
        result.append(.standardInput)
        continue
      }
      var info = stat()
      guard stat(path, &info) == 0 else {
        result.append(.unreadable(path: path, reason: String(cString: strerror(errno))))
        continue
      }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        var found: [Input] = []
        walk(path, info, into: &found)
        // An empty directory must not pass a leak gate as "clean": nothing was looked at.
        if found.isEmpty { found = [.unreadable(path: path, reason: "holds no regular file to scan")] }
        result += found
      } else {
        result.append(.file(path: path))
      }
    }
    return result
  }

  private mutating func walk(_ directory: String, _ info: stat, into result: inout [Input]) {
    guard visited.insert([StatIdentity.key(info.st_dev), StatIdentity.key(info.st_ino)]).inserted else {
      return
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    } catch {
      result.append(.unreadable(path: directory, reason: "cannot list directory"))
      return
    }
    for name in names {
      let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      var entry = stat()
      guard stat(path, &entry) == 0 else {
        result.append(.unreadable(path: path, reason: String(cString: strerror(errno))))
        continue
      }
      switch entry.st_mode & S_IFMT {
      case S_IFDIR: walk(path, entry, into: &result)
      case S_IFREG: result.append(.file(path: path))
      default: continue
      }
    }
  }
}
