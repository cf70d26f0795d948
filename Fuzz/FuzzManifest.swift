import Foundation

/// Fuzz target `manifest`: reads the bytes as a canary manifest. A manifest that loads must hold
/// only values of at least the minimum length, write itself back, and read back equal.
func fuzzManifest(_ bytes: [UInt8]) {
  let manifest: CanaryManifest
  do {
    manifest = try CanaryManifest(jsonData: Data(bytes))
  } catch {
    _ = "\(error)"
    return
  }
  for canary in manifest.canaries {
    fuzzCheck(
      canary.value.utf8.count >= CanaryManifest.minimumValueLength, "a short value was accepted")
    _ = canary.location.description
  }
  let written: Data
  do {
    written = try manifest.jsonData()
  } catch {
    fuzzFailure("a loaded manifest could not be written: \(error)")
  }
  do {
    let again = try CanaryManifest(jsonData: written)
    fuzzCheck(again == manifest, "round trip changed the manifest")
  } catch {
    fuzzFailure("a written manifest could not be read back: \(error)")
  }
}
