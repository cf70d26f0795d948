#if canImport(Compression)
  import Compression

  /// The decompressed bytes of an LZFSE stream (`bvx2`, `bvx1`, `bvxn` and `bvx-` blocks up to
  /// `bvx$`), decoded by the system's Compression framework; only on Apple platforms (elsewhere
  /// LZFSE is recognized and its source reported failed, see `UnopenedFormat`).
  package final class LZFSESource: DecodedSource {
    private static let outputCapacity = 1 << 18
    private let reader: ByteReader
    private let budget: any DecodingBudget
    private let stream: UnsafeMutablePointer<compression_stream>
    private let output: UnsafeMutablePointer<UInt8>
    private var started = false
    private var finished = false

    package init(_ reader: ByteReader, budget: any DecodingBudget) {
      self.reader = reader
      self.budget = budget
      stream = .allocate(capacity: 1)
      output = .allocate(capacity: Self.outputCapacity)
    }

    deinit {
      if started { compression_stream_destroy(stream) }
      stream.deallocate()
      output.deallocate()
    }

    package override func nextChunk() throws -> UnsafeBufferPointer<UInt8> {
      if finished { return UnsafeBufferPointer(start: nil, count: 0) }
      if !started {
        guard
          compression_stream_init(stream, COMPRESSION_STREAM_DECODE, COMPRESSION_LZFSE)
            == COMPRESSION_STATUS_OK
        else {
          throw ContainerError.unsupported("the Compression framework could not start an LZFSE decoder")
        }
        started = true
      }
      while true {
        if reader.available == 0 { try reader.fill() }
        let available = reader.available
        let sourceEnded = available == 0
        stream.pointee.src_ptr = UnsafePointer(reader.buffer + reader.position)
        stream.pointee.src_size = available
        stream.pointee.dst_ptr = output
        stream.pointee.dst_size = Self.outputCapacity
        let flags = sourceEnded ? Int32(COMPRESSION_STREAM_FINALIZE.rawValue) : 0
        let status = compression_stream_process(stream, flags)
        let consumed = available - stream.pointee.src_size
        reader.position += consumed
        let produced = Self.outputCapacity - stream.pointee.dst_size
        switch status {
        case COMPRESSION_STATUS_OK:
          if produced > 0 {
            try budget.expand(produced)
            return UnsafeBufferPointer(start: output, count: produced)
          }
          if sourceEnded { throw ContainerError.truncated("the LZFSE stream ends before its end marker") }
          if consumed == 0, !(try reader.fill()), reader.available > 0 {
            throw ContainerError.corrupt("the LZFSE decoder takes no more input")
          }
        case COMPRESSION_STATUS_END:
          finished = true
          guard try reader.atEnd() else {
            throw ContainerError.corrupt("bytes follow the end of the LZFSE stream")
          }
          try budget.expand(produced)
          return UnsafeBufferPointer(start: output, count: produced)
        default:
          throw ContainerError.corrupt("the Compression framework rejects the LZFSE stream")
        }
      }
    }
  }
#endif
