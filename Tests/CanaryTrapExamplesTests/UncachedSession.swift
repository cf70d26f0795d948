import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An ephemeral session without a URL cache: these tests cancel tasks (deadlines,
/// `invalidateAndCancel()`), and on Linux FoundationNetworking traps when a task is cancelled
/// during its cache lookup.
func uncachedSession() -> URLSession {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.urlCache = nil
  return URLSession(configuration: configuration)
}
