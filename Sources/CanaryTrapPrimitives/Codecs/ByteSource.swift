import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pull stream of bytes: a file, bytes in memory, a member of an archive or a decoder's output.
package protocol ByteSource: AnyObject {
  /// Reads at most `count` bytes into `pointer`; returns how many, 0 only at the end.
  func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int
}

/// Bytes held in memory.
package final class DataSource: ByteSource {
  private let data: Data
  private var position = 0

  package init(_ data: Data) { self.data = data }

  package func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    let taken = min(count, data.count - position)
    guard taken > 0 else { return 0 }
    data.withUnsafeBytes { raw in
      let start = raw.baseAddress!.advanced(by: position).assumingMemoryBound(to: UInt8.self)
      pointer.update(from: start, count: taken)
    }
    position += taken
    return taken
  }
}

/// A buffered reader over a ``ByteSource`` that container parsers read headers from and that
/// decoders read compressed bytes from directly, giving back what they over-read by moving
/// ``position`` back.
package final class ByteReader {
  /// Room for any 16-bit length (a zip name or extra field) plus what a decoder gives back.
  package static let capacity = 1 << 17
  package static let keptBehind = 8
  package let buffer: UnsafeMutablePointer<UInt8>
  /// The next unread byte in ``buffer``.
  package var position = 0
  /// One past the last valid byte in ``buffer``.
  package var end = 0
  /// Whether the source reported its end.
  private(set) var sourceEnded = false
  /// An error the source threw while ``prefetch(_:)`` read ahead, thrown once the bytes before it
  /// are used up.
  private var deferredError: (any Error)?
  /// Bytes moved out of the buffer's front so far, so ``offset`` counts from the source's start.
  private var discarded = 0
  private let source: any ByteSource
  /// Called with each run of bytes as it comes from the source, before any of it is read, so a
  /// container's own bytes (headers, names, comments, what follows its end) can be searched as
  /// they pass.
  package var observer: ((UnsafeBufferPointer<UInt8>) -> Void)?

  package init(_ source: any ByteSource) {
    self.source = source
    buffer = .allocate(capacity: Self.capacity + 16)
    buffer.initialize(repeating: 0, count: Self.capacity + 16)
  }

  deinit { buffer.deallocate() }

  /// Forgets everything read so far, so the reader (and its buffer) serves a new stream from a
  /// source that was refilled; the scanner's decoding pass reuses one reader for many payloads.
  package func reset() {
    position = 0
    end = 0
    sourceEnded = false
    deferredError = nil
    discarded = 0
  }

  /// Bytes buffered and not yet read.
  package var available: Int { end - position }
  /// The offset of ``position`` from the start of the source.
  package var offset: Int { discarded + position }

  /// Reads more from the source, moving unread bytes to the front; false at the source's end.
  @discardableResult
  package func fill() throws -> Bool {
    // Keeps the 8 bytes before `position`: a decoder may give back what its bit buffer holds.
    let kept = min(position, Self.keptBehind)
    if position > kept {
      let moved = end - position + kept
      memmove(buffer, buffer + position - kept, moved)
      discarded += position - kept
      end = moved
      position = kept
    }
    if let deferredError {
      if end > position { return false }
      throw deferredError
    }
    guard !sourceEnded, end < Self.capacity else { return false }
    let read = try source.read(into: buffer + end, count: Self.capacity - end)
    if read == 0 {
      sourceEnded = true
      return false
    }
    observer?(UnsafeBufferPointer(start: buffer + end, count: read))
    end += read
    return true
  }

  /// Buffers at least `count` bytes if the source has them (at most ``capacity``); returns
  /// whether it could.
  package func ensure(_ count: Int) throws -> Bool {
    precondition(count <= Self.capacity - Self.keptBehind)
    while end - position < count {
      if !(try fill()) { return end - position >= count }
    }
    return true
  }

  /// Buffers up to `count` bytes to look at; an error of the source is kept until the bytes
  /// before it are read, so a container that fails half way is scanned up to the failure.
  package func prefetch(_ count: Int) {
    while end - position < count {
      do {
        if !(try fill()) { return }
      } catch {
        if deferredError == nil { deferredError = error }
        return
      }
    }
  }

  /// Whether no byte is left, reading more to find out.
  package func atEnd() throws -> Bool { try !ensure(1) }

  /// The next `count` bytes (at most ``capacity``), or `nil` if the source ends first.
  package func take(_ count: Int) throws -> UnsafeBufferPointer<UInt8>? {
    guard count <= Self.capacity - Self.keptBehind else {
      throw ContainerError.overLimit(
        "a header field of \(count) bytes is over \(Self.capacity - Self.keptBehind)")
    }
    guard try ensure(count) else { return nil }
    defer { position += count }
    return UnsafeBufferPointer(start: buffer + position, count: count)
  }

  /// Copies up to `count` bytes out; 0 only at the source's end.
  package func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    if position == end, !(try fill()) { return 0 }
    let taken = min(count, end - position)
    pointer.update(from: buffer + position, count: taken)
    position += taken
    return taken
  }

  /// Skips `count` bytes; returns how many could be skipped before the source's end.
  package func skip(_ count: Int) throws -> Int {
    var left = count
    while left > 0 {
      if position == end, !(try fill()) { break }
      let taken = min(left, end - position)
      position += taken
      left -= taken
    }
    return count - left
  }
}

/// The rest of a ``ByteReader`` as a source, so a child container reads what its parent buffered.
package final class ReaderRemainder: ByteSource {
  private let reader: ByteReader
  package init(_ reader: ByteReader) { self.reader = reader }
  package func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    try reader.read(into: pointer, count: count)
  }
}

/// Exactly `length` bytes of a ``ByteReader`` (a stored archive member); the parent ending first
/// is an error naming `what`.
package final class BoundedSource: ByteSource {
  private let reader: ByteReader
  private(set) var remaining: Int
  private let what: String

  package init(_ reader: ByteReader, length: Int, what: String) {
    self.reader = reader
    remaining = length
    self.what = what
  }

  package func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    guard remaining > 0 else { return 0 }
    let read = try reader.read(into: pointer, count: min(count, remaining))
    if read == 0 { throw ContainerError.truncated("\(what) ends \(remaining) bytes early") }
    remaining -= read
    return read
  }

  /// Skips whatever the child did not read, so the parent can go on to its next member.
  package func drain() throws {
    let skipped = try reader.skip(remaining)
    remaining -= skipped
    if remaining > 0 { throw ContainerError.truncated("\(what) ends \(remaining) bytes early") }
  }
}
