import Foundation

extension RequestKind {
  /// Kinds for every operation of an OpenAPI 3.0 or 3.1 document in JSON: a canary in every
  /// path, query, header and cookie parameter, every security scheme's credential, every property
  /// of the request body (JSON, form, multipart and XML, one kind per media type; nested form
  /// fields as the media type's `encoding` says, such as `card[number]` for `deepObject`) and every
  /// header and JSON property of the first success response, which the scope's server answers with.
  ///
  /// Whatever is not planted is listed in ``ImportedKinds/skipped`` by JSON pointer. A document
  /// that is not JSON (YAML must be converted first), is not OpenAPI 3, or is malformed throws a
  /// `KindImportError` naming where.
  public static func kinds(fromOpenAPI document: Data, limits: ImportLimits = ImportLimits()) throws
    -> ImportedKinds
  {
    let root = try ImportCollector.decode(
      document, limits: limits, what: "OpenAPI document", refusingDuplicateKeys: true)
    var reader = OpenAPIReader(root: root, limits: limits)
    try reader.read()
    return reader.collector.result()
  }
}
