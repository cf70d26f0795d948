import Foundation

/// One path, directory or glob a ``FileSink`` watches, resolved to the regular files it covers.
struct FileTarget: Sendable {
  /// A file the target covers now: its absolute path and the name findings use.
  struct Match: Sendable, Hashable {
    var path: String
    var displayName: String
  }

  /// The absolute path or pattern.
  let absolute: String
  /// The pattern, if the target has wildcards.
  let glob: GlobPattern?
  /// The directory a glob's walk starts from (its wildcard-free leading components).
  let globRoot: String

  init(_ text: String, base: String?) {
    let joined =
      text.hasPrefix("/") ? text : ((base ?? FileManager.default.currentDirectoryPath) + "/" + text)
    absolute = Self.normalize(joined)
    if GlobPattern.hasWildcards(absolute) {
      let parts = absolute.split(separator: "/").map(String.init)
      let literal = parts.prefix { !GlobPattern.hasWildcards($0) }
      globRoot = "/" + literal.joined(separator: "/")
      glob = GlobPattern(parts.dropFirst(literal.count).joined(separator: "/"))
    } else {
      glob = nil
      globRoot = absolute
    }
  }

  /// The directory the target's files lie under: a glob's wildcard-free root, a watched
  /// directory itself, or a watched file's parent.
  var root: String {
    if glob != nil { return globRoot }
    return FileIdentity.isDirectory(absolute) ? absolute : Self.parent(of: absolute)
  }

  /// The regular files the target covers right now, named relative to `namingRoot`.
  func resolve(namingRoot: String) -> [Match] {
    if let glob {
      return walk(globRoot).filter { glob.matches($0.relative) }.map { match($0.path, namingRoot) }
    }
    if FileIdentity.isDirectory(absolute) {
      return walk(absolute).map { match($0.path, namingRoot) }
    }
    return FileIdentity(path: absolute) == nil ? [] : [match(absolute, namingRoot)]
  }

  /// Where a sink's names are made relative to, so that they hold no temporary directory and
  /// read the same in every run: `base` when every root lies inside it, else the deepest
  /// directory holding every root (a single watched directory names its files relative to itself;
  /// the sink's name labels the root).
  static func namingRoot(of roots: [String], base: String?) -> String {
    if let base = base.map(normalize), roots.allSatisfy({ isInside($0, base) }) { return base }
    guard var common = roots.first?.split(separator: "/").map(String.init) else { return base ?? "/" }
    for root in roots.dropFirst() {
      let parts = root.split(separator: "/").map(String.init)
      common = Array(zip(common, parts).prefix { $0 == $1 }.map(\.0))
    }
    return "/" + common.joined(separator: "/")
  }

  private static func isInside(_ path: String, _ directory: String) -> Bool {
    path == directory || path.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
  }

  private func walk(_ root: String) -> [(path: String, relative: String)] {
    guard FileIdentity.isDirectory(root), let walker = FileManager.default.enumerator(atPath: root) else {
      return []
    }
    var found: [(String, String)] = []
    while let relative = walker.nextObject() as? String {
      let path = root == "/" ? "/" + relative : root + "/" + relative
      if FileIdentity(path: path) != nil { found.append((path, relative)) }
    }
    return found.sorted { $0.0 < $1.0 }
  }

  private func match(_ path: String, _ namingRoot: String) -> Match {
    let prefix = namingRoot.hasSuffix("/") ? namingRoot : namingRoot + "/"
    let name = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    return Match(path: path, displayName: name)
  }

  private static func parent(of path: String) -> String {
    let parent = (path as NSString).deletingLastPathComponent
    return parent.isEmpty ? "/" : parent
  }

  /// Removes `.` components, resolves `..` and repeated slashes, without touching the disk.
  static func normalize(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }
}
