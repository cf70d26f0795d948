import Foundation

extension RequestKind {
  /// Kinds replaying every entry of a HAR 1.2 archive (Proxyman, Charles, a browser), one kind per
  /// entry: the recorded method and path under the kind's route, with every recorded value —
  /// query items, headers other than hop-by-hop, framing and `Host`, cookies, JSON leaves, form
  /// and multipart fields, and the response's headers and JSON leaves, which the scope's server
  /// answers with — replaced by a canary of a matching shape.
  ///
  /// Whatever is not planted is listed in ``ImportedKinds/skipped`` by JSON pointer; an archive
  /// that is not HAR JSON throws a `KindImportError` naming where.
  public static func kinds(fromHAR archive: Data, limits: ImportLimits = ImportLimits()) throws
    -> ImportedKinds
  {
    let root = try ImportCollector.decode(
      archive, limits: limits, what: "HAR archive", refusingDuplicateKeys: true)
    var reader = HARReader(collector: ImportCollector(limits: limits))
    try reader.read(root)
    return reader.collector.result()
  }
}
