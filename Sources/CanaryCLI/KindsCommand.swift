import CanaryTrap
import Foundation

/// `canary kinds`: print the request kinds an OpenAPI document or a HAR archive plants.
enum KindsCommand {
  static let command = CommandSpec(
    name: "kinds", abstract: "Print the kinds an OpenAPI document or HAR file plants.",
    discussion: """
      Reads an OpenAPI 3.0/3.1 document (JSON; convert YAML first) or a HAR 1.2 archive and prints \
      the request kinds RequestKind.kinds(fromOpenAPI:) or kinds(fromHAR:) make from it: one line \
      per planted location, then every construct that was NOT planted, by JSON pointer.
      """,
    options: [openAPIOption, harOption, jsonOption, strictOption],
    epilogue: """
      EXIT STATUS:
        0  read (and, with --strict, everything planted)
        2  bad usage, or a document that cannot be read, with the place that is wrong
        3  with --strict, something was not planted
      """,
    run: { parsed, io in execute(parsed, io: io) })

  static let openAPIOption = Option<String?>.value(
    "--openapi", placeholder: "FILE", help: "The OpenAPI document.")

  static let harOption = Option<String?>.value("--har", placeholder: "FILE", help: "The HAR archive.")

  static let jsonOption = Option<Bool>.flag(
    "--json", help: "Print one JSON object (kinds, locations, skipped, declined) instead of a table.")

  static let strictOption = Option<Bool>.flag("--strict", help: "Exit 3 when anything was not planted.")

  static func execute(_ parsed: ParsedCommand, io: CommandIO) -> Int32 {
    let json = parsed[jsonOption]
    let strict = parsed[strictOption]
    let openAPI = parsed[openAPIOption]
    let har = parsed[harOption]
    if openAPI != nil, har != nil { return fail("give one document, got --openapi and --har", io: io) }
    let source = openAPI.map { (kind: "openapi", path: $0) } ?? har.map { (kind: "har", path: $0) }
    guard let source else { return fail("give --openapi FILE or --har FILE", io: io) }
    let imported: ImportedKinds
    do {
      // Read no further than the importer's limit: a larger document is refused, not read whole.
      let limit = ImportLimits().maxDocumentBytes
      let data = try InputDocument.read(
        source.path,
        what: "the limit for \(source.kind == "openapi" ? "an OpenAPI document" : "a HAR file") is "
          + "\(limit >> 20) MiB",
        maximumSize: limit)
      imported =
        source.kind == "openapi"
        ? try RequestKind.kinds(fromOpenAPI: data) : try RequestKind.kinds(fromHAR: data)
    } catch let error as KindImportError {
      return fail("\(source.path): \(error)", io: io)
    } catch {
      return fail("\(error)", io: io)
    }
    io.writeOutput(json ? jsonText(imported) : table(imported))
    if imported.skippedCount > 0 {
      io.writeError(
        "canary kinds: \(imported.skippedCount) construct(s) of \(source.path) were not planted (listed above)\n"
      )
    }
    return strict && !imported.isComplete ? ExitStatus.inconclusive : ExitStatus.success
  }

  static func table(_ imported: ImportedKinds) -> String {
    var out = ""
    for plan in imported.plans {
      out += "\(plan.kindName)  \(plan.origin)  (\(plan.locations.count) canaries)\n"
      for (location, shape) in plan.locations { out += "  \(location)  [\(shape.rawValue)]\n" }
    }
    out +=
      "\n\(imported.kinds.count) kinds, \(imported.canaryCount) canaries, \(imported.skippedCount) not planted\n"
    if !imported.skipped.isEmpty {
      out += "\nNOT PLANTED:\n" + imported.skipped.map { "  \($0)\n" }.joined()
      let unlisted = imported.skippedCount - imported.skipped.count
      if unlisted > 0 { out += "  … and \(unlisted) more, not listed\n" }
    }
    if !imported.declined.isEmpty {
      out += "\nDECLINED (\"x-canary\": false):\n" + imported.declined.map { "  \($0)\n" }.joined()
      let unlisted = imported.declinedCount - imported.declined.count
      if unlisted > 0 { out += "  … and \(unlisted) more, not listed\n" }
    }
    return out
  }

  static func jsonText(_ imported: ImportedKinds) -> String {
    struct Location: Encodable {
      var location: String
      var shape: String
    }
    struct Kind: Encodable {
      var name: String
      var origin: String
      var method: String
      var locations: [Location]
    }
    struct Skipped: Encodable {
      var pointer: String
      var reason: String
    }
    struct Document: Encodable {
      var kinds: [Kind]
      var canaries: Int
      var skipped: [Skipped]
      var skippedCount: Int
      var declined: [Skipped]
      var declinedCount: Int
    }
    let document = Document(
      kinds: imported.plans.map { plan in
        Kind(
          name: plan.kindName, origin: plan.origin, method: plan.method,
          locations: plan.locations.map { Location(location: "\($0.location)", shape: $0.shape.rawValue) })
      },
      canaries: imported.canaryCount,
      skipped: imported.skipped.map { Skipped(pointer: $0.pointer, reason: $0.reason) },
      skippedCount: imported.skippedCount,
      declined: imported.declined.map { Skipped(pointer: $0.pointer, reason: $0.reason) },
      declinedCount: imported.declinedCount)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(document)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
  }

  private static func fail(_ reason: String, io: CommandIO) -> Int32 {
    io.writeError("canary kinds: \(reason)\n")
    return ExitStatus.usage
  }
}
