/// The pages of a database's freelist (the SQLite file format, "The Freelist"): the chain of trunk
/// pages from the header's first trunk, and the leaf pages each trunk lists.
///
/// A hostile freelist cannot make the walk hang or grow: each page is taken once, the chain stops
/// at a page it already took, and a trunk is read for at most as many leaves as fit on it. Every
/// entry not taken (outside the database, listed twice, a trunk pointer that loops, a leaf count
/// past what fits) is counted in ``dropped`` and the first reason kept in ``problem``.
struct SQLiteFreelist {
  /// The trunk pages, in chain order.
  private(set) var trunks: [Int] = []
  /// The leaf pages, in the order the trunks list them.
  private(set) var leaves: [Int] = []
  /// How many entries were not taken.
  private(set) var dropped = 0
  /// Why the first entry was not taken, or nil when every one was.
  private(set) var problem: String?

  /// Reads the freelist of `reader`'s database; throws only when a page cannot be read.
  init(_ reader: SQLiteReader, firstTrunk: Int) throws {
    var taken = Set<Int>()
    var next = firstTrunk
    let maxLeaves = reader.usable / 4 - 2
    while next != 0 {
      guard next >= 1, next <= reader.pageCount else {
        drop(
          1, "a freelist trunk pointer names page \(next), outside the database's \(reader.pageCount) pages")
        break
      }
      guard taken.insert(next).inserted else {
        drop(1, "the freelist's trunk chain reaches page \(next) again (a loop)")
        break
      }
      trunks.append(next)
      let trunk = try reader.page(next)
      let claimed = SQLiteReader.be32(trunk, 4)
      if claimed > maxLeaves {
        drop(
          claimed - maxLeaves,
          "freelist trunk page \(next) lists \(claimed) leaves, more than fit (\(maxLeaves))")
      }
      for index in 0..<min(claimed, maxLeaves) {
        let leaf = SQLiteReader.be32(trunk, 8 + 4 * index)
        guard leaf >= 1, leaf <= reader.pageCount else {
          drop(
            1, "a freelist leaf pointer names page \(leaf), outside the database's \(reader.pageCount) pages")
          continue
        }
        guard taken.insert(leaf).inserted else {
          drop(1, "freelist page \(leaf) is listed twice")
          continue
        }
        leaves.append(leaf)
      }
      next = SQLiteReader.be32(trunk, 0)
    }
  }

  private mutating func drop(_ count: Int, _ reason: String) {
    dropped += count
    if problem == nil { problem = reason }
  }
}
