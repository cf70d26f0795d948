import Foundation
import Testing

@testable import CanaryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Directory entries are read as NUL-terminated names bounded by their record (issue 37): copying
/// `d_name` as its full 256-byte field read past the end of `readdir`'s buffer and crashed the
/// walk of a tree of long names, and of `/proc/self`.
@Suite struct ScanWalkerNameTests {
  #if os(Linux)
    @Test func aShortRecordAtTheEndOfMappedMemoryIsReadWithinIt() throws {
      // A record of a 3-byte name placed so that its record ends where readable memory ends: a
      // read of the whole 256-byte field would fault on the page behind it.
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      guard let memory = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        memory != MAP_FAILED
      else {
        Issue.record("mmap failed")
        return
      }
      defer { munmap(memory, 2 * page) }
      #expect(mprotect(memory + page, page, PROT_NONE) == 0)
      let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
      let recordLength = (nameOffset + 4 + 7) & ~7
      let record = memory + page - recordLength
      memset(record, 0, recordLength)
      let entry = record.bindMemory(to: dirent.self, capacity: 1)
      entry.pointee.d_reclen = UInt16(recordLength)
      (record + nameOffset).copyMemory(from: "abc", byteCount: 3)
      #expect(ScanInputWalker.name(of: entry) == Array("abc".utf8))
    }

    @Test func procSelfIsListedWithoutACrash() throws {
      for directory in ["/proc/self", "/proc/self/fd", "/proc/self/task"] {
        guard case .success(let names) = ScanInputWalker.entries(of: ScanPath(directory)) else {
          Issue.record("cannot list \(directory)")
          continue
        }
        #expect(!names.isEmpty, "\(directory)")
        #expect(names.allSatisfy { !$0.isEmpty && !$0.contains(0) && $0.count < 256 }, "\(directory)")
      }
    }
  #endif

  @Test func aTreeOfLongNamesIsWalkedWholeWithEveryNameExact() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    var expected: Set<String> = []
    for folder in 0..<12 {
      let directory = root.appendingPathComponent(String(repeating: "d", count: 200) + "\(folder)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for file in 0..<300 {
        // Names of every length from 1 to 255 bytes, unique within the folder.
        let length = 1 + (file * 37 + folder) % 255
        let stem = String(file, radix: 36)
        let name = stem + String(repeating: "x", count: max(0, length - stem.count))
        let url = directory.appendingPathComponent(name)
        guard !FileManager.default.fileExists(atPath: url.path) else { continue }
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data("x\n".utf8)))
        expected.insert(url.path)
      }
    }
    var walker = ScanInputWalker()
    let inputs = walker.inputs(for: [ScanPath(root.path)])
    var found: Set<String> = []
    for input in inputs {
      guard case .file(let path, _, _) = input else {
        Issue.record("not a file: \(input)")
        continue
      }
      found.insert(String(decoding: path.bytes, as: UTF8.self))
    }
    #expect(found == expected)
  }

  @Test("a walk past its entry limit stops and makes the PATH an error; at the limit it is whole")
  func aWalkPastItsLimitStops() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "walk-limit-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    for folder in 0..<3 {
      let directory = root.appendingPathComponent("d\(folder)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for file in 0..<4 {
        #expect(
          FileManager.default.createFile(atPath: directory.path + "/f\(file)", contents: Data("x\n".utf8)))
      }
    }
    // 3 folders and 12 files: 15 entries.
    var atLimit = ScanInputWalker()
    atLimit.fileLimit = 15
    let whole = atLimit.inputs(for: [ScanPath(root.path)])
    #expect(whole.count == 12)
    #expect(whole.allSatisfy { if case .file = $0 { true } else { false } })

    var pastLimit = ScanInputWalker()
    pastLimit.fileLimit = 14
    let stopped = pastLimit.inputs(for: [ScanPath(root.path)])
    #expect(stopped.count == 1)
    guard case .unreadable(_, let reason) = stopped.first else {
      Issue.record("expected the PATH to be an error, got \(stopped)")
      return
    }
    #expect(reason.contains("holds more than 14 entries"))
  }
}
