import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if os(Linux)
  /// `--force` writes exactly the files the shell's `>` writes: root writes a read-only file (as
  /// `>` does), any other user is refused one, and a writable file in a directory the user cannot
  /// add to is written in place. Each case runs the shell and the built `canary` as the same user,
  /// this process's and, when this process is root, `nobody` (through `setpriv`).
  @Suite struct OutputPermissionTests {
    /// The users to run as: this process's, and `nobody` when root can switch to it.
    static var users: [String?] {
      geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        ? [nil, "nobody"] : [nil]
    }

    /// The command prefix that runs as `user`.
    static func prefix(_ user: String?) -> String {
      user == nil ? "" : "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "
    }

    /// A workspace `nobody` can reach, with `name` holding "mine" in `mode`, owned by `owner`.
    static func file(_ name: String, mode: mode_t, owner: uid_t, in workspace: ScanWorkspace) throws -> String
    {
      let path = try workspace.write(name, "mine\n")
      #expect(chown(path, owner, gid_t(owner == 0 ? 0 : 65534)) == 0 || geteuid() != 0)
      #expect(chmod(path, mode) == 0)
      return path
    }

    @Test(arguments: users)
    func aReadOnlyFileIsWrittenExactlyWhenTheShellCanWriteIt(_ user: String?) throws {
      let workspace = try ScanWorkspace()
      defer { workspace.remove() }
      #expect(chmod(workspace.root.path, 0o755) == 0)
      let owner: uid_t = user == nil ? geteuid() : 65534
      let byShell = try Self.file("shell.txt", mode: 0o444, owner: owner, in: workspace)
      let byCanary = try Self.file("canary.txt", mode: 0o444, owner: owner, in: workspace)
      let prefix = Self.prefix(user)
      _ = try CanaryProcess.run("\(prefix)sh -c \"echo replaced > shell.txt\"", in: workspace.root)
      let canary = try CanaryProcess.run(
        "\(prefix)\"$CANARY\" manifest -o canary.txt --force", in: workspace.root)
      let shellWrote = try String(contentsOfFile: byShell, encoding: .utf8) != "mine\n"
      let canaryWrote = try String(contentsOfFile: byCanary, encoding: .utf8) != "mine\n"
      #expect(
        shellWrote == canaryWrote, "\(user ?? "self"): the shell wrote \(shellWrote), canary \(canaryWrote)")
      #expect(shellWrote == (geteuid() == 0 && user == nil), "\(user ?? "self")")
      if canaryWrote {
        #expect(canary.status == ExitStatus.success, "\(canary.error)")
        var info = stat()
        #expect(stat(byCanary, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o444, "the mode is kept")
        #expect(info.st_uid == owner, "the owner is kept")
      } else {
        #expect(canary.status == ExitStatus.usage)
        #expect(canary.error.contains("cannot write canary.txt: Permission denied"), "\(canary.error)")
      }
    }

    @Test(arguments: users)
    func aWritableFileInADirectoryThatTakesNoNewFileIsWrittenInPlace(_ user: String?) throws {
      let workspace = try ScanWorkspace()
      defer { workspace.remove() }
      let owner: uid_t = user == nil ? geteuid() : 65534
      let output = try Self.file("sub/out.txt", mode: 0o666, owner: owner, in: workspace)
      var before = stat()
      #expect(stat(output, &before) == 0)
      // Only the directory's owner (root, or this user) may add files to it, and not even it here.
      #expect(chmod(workspace.path("sub"), 0o555) == 0)
      defer { chmod(workspace.path("sub"), 0o755) }
      let canary = try CanaryProcess.run(
        "\(Self.prefix(user))\"$CANARY\" manifest -o sub/out.txt --force", in: workspace.root)
      #expect(canary.status == ExitStatus.success, "\(user ?? "self"): \(canary.error)")
      let manifest = try CanaryManifest(contentsOf: URL(fileURLWithPath: output))
      #expect(manifest.canaries.count == 1)
      var after = stat()
      #expect(stat(output, &after) == 0)
      // Root may add files anywhere, so it replaces the file; everyone else writes it as > does.
      if geteuid() != 0 || user != nil {
        #expect(after.st_ino == before.st_ino, "written in place, as > does")
      }
    }

    @Test(arguments: users)
    func aNewFileWhereTheUserCannotCreateOneIsRefusedBeforeAnyWork(_ user: String?) throws {
      let workspace = try ScanWorkspace()
      defer { workspace.remove() }
      let locked = workspace.path("locked")
      try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
      #expect(chmod(locked, 0o555) == 0)
      #expect(chmod(workspace.root.path, 0o755) == 0)
      defer { chmod(locked, 0o755) }
      let prefix = Self.prefix(user)
      let shell = try CanaryProcess.run("\(prefix)sh -c \"echo x > locked/shell.txt\"", in: workspace.root)
      let canary = try CanaryProcess.run(
        "\(prefix)\"$CANARY\" manifest -o locked/canary.txt", in: workspace.root)
      let shellWrote = fileType(workspace.path("locked/shell.txt")) == S_IFREG
      let canaryWrote = fileType(workspace.path("locked/canary.txt")) == S_IFREG
      #expect(shellWrote == canaryWrote, "\(user ?? "self"): the shell wrote \(shellWrote) (\(shell.error))")
      if !canaryWrote {
        #expect(canary.status == ExitStatus.usage)
        #expect(canary.error.contains("cannot create a file in locked: Permission denied"), "\(canary.error)")
      }
    }
  }
#endif
