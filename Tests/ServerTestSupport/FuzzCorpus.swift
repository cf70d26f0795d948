import Foundation

/// The seed corpora of the fuzz targets, which the core's and the scanner's tests replay.
public enum FuzzCorpus {
  /// The files of `Fuzz/Corpus/<target>`, found from this source file's location, sorted by name.
  public static func files(_ target: String) -> [(name: String, bytes: [UInt8])] {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let folder = root.appendingPathComponent("Fuzz/Corpus/\(target)")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().compactMap { name in
      (try? Data(contentsOf: folder.appendingPathComponent(name))).map { (name, Array($0)) }
    }
  }
}
