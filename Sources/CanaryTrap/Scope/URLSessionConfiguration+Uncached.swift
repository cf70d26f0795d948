import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionConfiguration {
  /// A new ephemeral configuration without a URL cache, for a session whose tasks may be
  /// cancelled: on Linux, FoundationNetworking traps ("task not in the registry") when a task is
  /// cancelled while its cache lookup is pending (see PlatformSupport).
  package static var uncachedEphemeral: URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    return configuration
  }
}
