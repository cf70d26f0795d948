import Foundation

/// Fuzz targets `openapi` and `har`: read the bytes as an OpenAPI document or a HAR archive. A
/// document that reads must keep every limit (kinds, canaries per kind, recorded skips) and count
/// every skip; one that does not gets an error with a message.
func fuzzImport(_ openAPI: Bool) -> ([UInt8]) -> Void {
  { bytes in
    var limits = ImportLimits()
    limits.maxKinds = 50
    limits.maxCanariesPerKind = 40
    limits.maxSkippedRecorded = 20
    let imported: ImportedKinds
    do {
      imported =
        openAPI
        ? try RequestKind.kinds(fromOpenAPI: Data(bytes), limits: limits)
        : try RequestKind.kinds(fromHAR: Data(bytes), limits: limits)
    } catch let error as KindImportError {
      fuzzCheck(!error.description.isEmpty, "an import error without a message")
      return
    } catch {
      fuzzFailure("an error that is not a KindImportError: \(error)")
    }
    fuzzCheck(imported.kinds.count <= limits.maxKinds, "more kinds than maxKinds")
    fuzzCheck(imported.kinds.count == imported.plans.count, "kinds and plans differ")
    fuzzCheck(imported.skipped.count <= limits.maxSkippedRecorded, "more skips recorded than the limit")
    fuzzCheck(imported.skippedCount >= imported.skipped.count, "skips recorded but not counted")
    for plan in imported.plans {
      fuzzCheck(
        plan.locations.count <= limits.maxCanariesPerKind + 2, "more canaries than maxCanariesPerKind")
      let nameIsSlug = plan.kindName.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
      fuzzCheck(nameIsSlug, "kind name \(plan.kindName)")
      for (location, _) in plan.locations { _ = location.description }
    }
  }
}

/// Fuzz target `xmlpath`: read the bytes as XML at a few paths, as the delivery proof of XML
/// bodies does. It must not crash or hang, and what it reads at a path holds no more values than
/// the document has elements and attributes.
func fuzzXMLPath(_ bytes: [UInt8]) {
  let openings = bytes.filter { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "=") }.count
  for path in ["a", "a/b", "a/@id", "login/factors/factor", "r/k"] {
    let values = XMLPathLookup.values(at: path, in: bytes)
    fuzzCheck(values.count <= openings, "more values at \(path) than elements and attributes")
  }
}
