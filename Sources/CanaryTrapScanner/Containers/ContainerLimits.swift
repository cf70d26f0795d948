import CanaryTrapPrimitives

/// Limits that stop a decompression bomb; a container over one is reported as a failed source.
///
/// They apply to every container the scanner opens (see How scanning works, Containers).
///
/// The defaults are far above any real log: deflate cannot expand real text more than about
/// 1,032 times, so the ratio limit only stops compression stacked on compression, and the total
/// only stops inputs that would take minutes to scan.
package struct ContainerLimits: Sendable, Hashable {
  /// The most bytes all the containers of one source may expand to (32 GiB by default).
  package var maxExpandedBytes: Int
  /// The most expanded bytes per byte of the source (2,000 by default), enforced beyond
  /// ``ratioFloor`` expanded bytes.
  package var maxExpansionRatio: Int
  /// Expanded bytes always allowed whatever the ratio (64 MiB by default).
  package var ratioFloor: Int
  /// The most containers nested in one another (8 by default).
  package var maxDepth: Int
  /// The most members one source's archives may hold (1,000,000 by default).
  package var maxMembers: Int

  /// The default limits.
  package init(
    maxExpandedBytes: Int = 32 << 30, maxExpansionRatio: Int = 2_000, ratioFloor: Int = 64 << 20,
    maxDepth: Int = 8, maxMembers: Int = 1_000_000
  ) {
    self.maxExpandedBytes = maxExpandedBytes
    self.maxExpansionRatio = maxExpansionRatio
    self.ratioFloor = ratioFloor
    self.maxDepth = maxDepth
    self.maxMembers = maxMembers
  }
}

/// Counts what one source's containers expanded to against its ``ContainerLimits``.
final class ExpansionBudget: DecodingBudget {
  let limits: ContainerLimits
  /// The size of the source as stored (the compressed size); a stream whose size is not known
  /// up front (standard input) raises it as it is read.
  var inputBytes: Int
  private(set) var expandedBytes = 0
  private(set) var members = 0

  init(limits: ContainerLimits, inputBytes: Int) {
    self.limits = limits
    self.inputBytes = inputBytes
  }

  private var ratioLimit: Int {
    let (ratioBytes, overflow) = max(inputBytes, 1).multipliedReportingOverflow(
      by: max(limits.maxExpansionRatio, 1))
    return max(limits.ratioFloor, overflow ? Int.max : ratioBytes)
  }

  /// Counts `count` decompressed bytes; throws when a limit is passed.
  func expand(_ count: Int) throws {
    expandedBytes += count
    if expandedBytes > limits.maxExpandedBytes {
      throw ContainerError.overLimit(
        "expands past \(limits.maxExpandedBytes) bytes (ContainerLimits.maxExpandedBytes)")
    }
    if expandedBytes > limits.ratioFloor, expandedBytes > ratioLimit {
      throw ContainerError.overLimit(
        "expands past \(ratioLimit) bytes from \(inputBytes) stored bytes, more than "
          + "\(limits.maxExpansionRatio) times (ContainerLimits.maxExpansionRatio)")
    }
  }

  /// Counts one archive member; throws past the limit.
  func member() throws {
    members += 1
    if members > limits.maxMembers {
      throw ContainerError.overLimit(
        "holds more than \(limits.maxMembers) members (ContainerLimits.maxMembers)")
    }
  }
}
