#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Expands the PATH arguments of `canary scan` into files: directories are walked recursively in
/// byte order of their names, symbolic links are followed, and a directory already visited (a
/// link loop) is skipped. Inside a directory only regular files are scanned (never FIFOs or
/// devices, which could block); a path named on the command line is read whatever its type.
/// Paths are bytes throughout, so names that are not UTF-8 are found and opened.
struct ScanInputWalker {
  /// One input to scan.
  enum Input: Equatable {
    /// A file to stream; `directory` is the PATH argument it was found under, if any.
    case file(ScanPath, identity: FileIdentity, directory: ScanPath?)
    /// Standard input.
    case standardInput
    /// A path that cannot be read, with a one-line reason.
    case unreadable(ScanPath, reason: String)
  }

  private var visited: Set<FileIdentity> = []
  /// The most files one directory PATH may yield; past it the walk stops and the PATH is an error.
  /// A link to `/` (as `/proc/self/root` is) would otherwise walk the whole file system.
  var fileLimit = 1_000_000
  /// Entries (files, directories, errors) met so far under the PATH being walked.
  private var met = 0

  /// The inputs named by `paths`, in order.
  mutating func inputs(for paths: [ScanPath]) -> [Input] {
    var result: [Input] = []
    for path in paths {
      if path.bytes == Array("-".utf8) {
        result.append(.standardInput)
        continue
      }
      switch path.status() {
      case .failure(let error):
        result.append(.unreadable(path, reason: error.description))
      case .success(let info) where (info.st_mode & S_IFMT) == S_IFDIR:
        var found: [Input] = []
        met = 0
        walk(path, info, root: path, into: &found)
        if met > fileLimit {
          found = [
            .unreadable(
              path,
              reason: "holds more than \(fileLimit) entries (links followed): the walk stopped there;"
                + " scan fewer at a time, or in shards with --files-from")
          ]
        }
        // An empty directory must not pass a leak gate as "clean": nothing was looked at.
        if found.isEmpty { found = [.unreadable(path, reason: "holds no regular file to scan")] }
        result += found
      case .success(let info):
        result.append(.file(path, identity: FileIdentity(info), directory: nil))
      }
    }
    return result
  }

  private mutating func walk(_ directory: ScanPath, _ info: stat, root: ScanPath, into result: inout [Input])
  {
    guard met <= fileLimit, visited.insert(FileIdentity(info)).inserted else { return }
    let names: [[UInt8]]
    switch Self.entries(of: directory) {
    case .failure(let error):
      result.append(.unreadable(directory, reason: "cannot list directory: \(error)"))
      return
    case .success(let found): names = found
    }
    for name in names {
      met += 1
      guard met <= fileLimit else { return }
      let path = directory.appending(name)
      switch path.status() {
      case .failure(let error):
        result.append(.unreadable(path, reason: error.description))
      case .success(let entry) where (entry.st_mode & S_IFMT) == S_IFDIR:
        walk(path, entry, root: root, into: &result)
      case .success(let entry) where (entry.st_mode & S_IFMT) == S_IFREG:
        result.append(.file(path, identity: FileIdentity(entry), directory: root))
      case .success:
        continue
      }
    }
  }

  /// The names in `directory` as bytes, sorted, without `.` and `..`.
  static func entries(of directory: ScanPath) -> Result<[[UInt8]], ScanPathError> {
    guard let stream = directory.withCString({ opendir($0) }) else { return .failure(.current()) }
    defer { closedir(stream) }
    var names: [[UInt8]] = []
    while let entry = readdir(stream) {
      let name = Self.name(of: entry)
      if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
      names.append(name)
    }
    return .success(names.sorted { $0.lexicographicallyPrecedes($1) })
  }

  /// The name of a directory entry: the NUL-terminated bytes at `d_name`, read no further than the
  /// record's own length (`d_reclen`). A record is often shorter than the declared 256-byte field
  /// (the kernel packs records by name length), so copying the whole field can read past the end
  /// of the buffer `readdir` filled, and crash.
  static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
    let fieldOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
    let room = max(0, min(Int(entry.pointee.d_reclen) - fieldOffset, 256))
    let start = UnsafeRawPointer(entry) + fieldOffset
    let length = strnlen(start.assumingMemoryBound(to: CChar.self), room)
    return Array(UnsafeRawBufferPointer(start: start, count: length))
  }
}
