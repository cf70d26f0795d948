/// The pages of a database's freelist (the SQLite file format, "The Freelist"): the chain of trunk
/// pages from the header's first trunk, and the leaf pages each trunk lists.
///
/// A hostile freelist cannot make the walk hang or grow: each page is taken once, the chain stops
/// at a page it already took, and a trunk is read for at most as many leaves as fit on it. Every
/// entry not taken (outside the database, listed twice, a trunk pointer that loops, a leaf count
/// past what fits) is counted in ``dropped`` and the first reason kept in ``problem``.
struct SQLiteFreelist {
  /// The trunk pages.
  private(set) var trunks: SQLitePageSet
  /// The leaf pages.
  private(set) var leaves: SQLitePageSet
  /// How many entries were not taken.
  private(set) var dropped = 0
  /// Why the first entry was not taken, or nil when every one was.
  private(set) var problem: String?

  /// The pages taken so far, trunks and leaves.
  private var taken: SQLitePageSet

  /// Reads the freelist of `reader`'s database; throws only when a page cannot be read.
  init(_ reader: SQLiteReader, firstTrunk: Int) throws {
    trunks = SQLitePageSet(pageCount: reader.pageCount)
    leaves = SQLitePageSet(pageCount: reader.pageCount)
    taken = SQLitePageSet(pageCount: reader.pageCount)
    var next = firstTrunk
    let maxLeaves = reader.usable / 4 - 2
    while next != 0, take(next, "trunk", pageCount: reader.pageCount) {
      trunks.insert(next)
      let trunk = try reader.page(next)
      let claimed = SQLiteReader.be32(trunk, 4)
      if claimed > maxLeaves {
        drop(
          claimed - maxLeaves,
          "freelist trunk page \(next) lists \(claimed) leaves, more than fit (\(maxLeaves))")
      }
      for index in 0..<min(claimed, maxLeaves) {
        let leaf = SQLiteReader.be32(trunk, 8 + 4 * index)
        if take(leaf, "leaf", pageCount: reader.pageCount) { leaves.insert(leaf) }
      }
      next = SQLiteReader.be32(trunk, 0)
    }
  }

  /// Takes `page`, named by a `kind` pointer, when it is in the database and not taken yet;
  /// otherwise drops the pointer.
  private mutating func take(_ page: Int, _ kind: String, pageCount: Int) -> Bool {
    guard page >= 1, page <= pageCount else {
      drop(1, "a freelist \(kind) pointer names page \(page), outside the database's \(pageCount) pages")
      return false
    }
    guard taken.insert(page) else {
      drop(1, "a freelist \(kind) pointer names page \(page) twice (a loop or a repeat)")
      return false
    }
    return true
  }

  private mutating func drop(_ count: Int, _ reason: String) {
    dropped += count
    if problem == nil { problem = reason }
  }
}
