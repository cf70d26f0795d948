/// Bounds on what the scanner decodes from the text it reads (hex and byte lists, base64 of
/// compressed payloads; see ``ScanEncoding/nsdataHex``): passing one makes the source
/// ``ScannedSource/Status/failed(reason:)`` (inconclusive), never clean.
package struct DecodingLimits: Sendable, Hashable {
  /// The most decoding steps stacked on each other: base64, then gzip, then hex inside the
  /// gzipped text is three. A compressed payload found deeper is not searched, and the source is
  /// inconclusive (bytes there that only begin as one may, and do not inflate, are none).
  package var maxDepth: Int = 4
  /// The most bytes one compressed payload found in the text may expand to; it is held in memory
  /// while it is searched.
  package var maxPayloadBytes: Int = 16 << 20
  /// The most bytes decoded and decompressed per source, all payloads and runs together.
  package var maxDecodedBytes: Int = 4 << 30
  /// The longest run of encoded text (hex, a byte list, base64) decoded as one piece; a longer
  /// run is inconclusive. At most half the scanner's buffer (512 KiB by default) in any case.
  package var maxRunBytes: Int = 512 << 10

  /// The default limits.
  package init() {}
}
