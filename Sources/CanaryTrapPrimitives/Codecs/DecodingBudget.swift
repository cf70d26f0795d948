/// What a decoder reports its output to, so that the caller's limits stop a decompression bomb.
package protocol DecodingBudget: AnyObject {
  /// Counts `count` more decoded bytes; throws once a limit is passed.
  func expand(_ count: Int) throws
}
