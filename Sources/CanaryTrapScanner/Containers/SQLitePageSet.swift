/// A set of page numbers 1...`pageCount` as one bit each, so the pages a database walk has
/// visited, or its freelist names, take a bit per page however many it lists (a 32 GiB database
/// of 512-byte pages: 8 MiB), never a hash table entry per page.
struct SQLitePageSet {
  private var words: [UInt64]
  let pageCount: Int
  /// How many pages are in the set.
  private(set) var count = 0

  init(pageCount: Int) {
    self.pageCount = max(pageCount, 0)
    words = [UInt64](repeating: 0, count: self.pageCount / 64 + 1)
  }

  func contains(_ page: Int) -> Bool {
    guard page >= 1, page <= pageCount else { return false }
    return words[page >> 6] & (1 << UInt64(page & 63)) != 0
  }

  /// Adds `page` (a page outside 1...pageCount is never added); returns whether it was new.
  @discardableResult
  mutating func insert(_ page: Int) -> Bool {
    guard page >= 1, page <= pageCount, !contains(page) else { return false }
    words[page >> 6] |= 1 << UInt64(page & 63)
    count += 1
    return true
  }
}
