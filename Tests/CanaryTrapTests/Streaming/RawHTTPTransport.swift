import CanaryTrap
import Foundation
import ServerTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A test transport on a raw socket that reads what URLSession does not hand the app: the header
/// fields of informational (`1xx`) responses and a chunked body's trailers, both returned among
/// the final response's headers (`GET` only, `Connection: close`).
enum RawHTTPTransport {
  static func transport(port: UInt16) -> Transport {
    Transport { request in
      let url = try request.url.unwrap()
      let target = url.path + (url.query.map { "?\($0)" } ?? "")
      let client = try RawClient(port: port)
      client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
      var rest = Substring(client.readToEnd().text)
      var fields: [String: String] = [:]
      func add(_ line: Substring) {
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        fields[name] = fields[name].map { "\($0), \(value)" } ?? value
      }
      var status = 0
      var chunked = false
      while let end = rest.range(of: "\r\n\r\n") {
        let lines = rest[..<end.lowerBound].split(separator: "\r\n", omittingEmptySubsequences: false)
        rest = rest[end.upperBound...]
        status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        lines.dropFirst().forEach(add)
        chunked = lines.contains { $0.lowercased() == "transfer-encoding: chunked" }
        if status >= 200 { break }
      }
      var body = Data()
      if chunked {
        while let sizeEnd = rest.range(of: "\r\n"), let size = Int(rest[..<sizeEnd.lowerBound], radix: 16) {
          rest = rest[sizeEnd.upperBound...]
          if size == 0 { break }
          body.append(Data(rest.utf8.prefix(size)))
          rest = Substring(String(decoding: rest.utf8.dropFirst(size + 2), as: UTF8.self))
        }
        for line in rest.split(separator: "\r\n") { add(line) }  // the trailers
        fields["Transfer-Encoding"] = nil
      } else {
        body = Data(rest.utf8)
      }
      let response = try HTTPURLResponse(
        url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields
      )
      .unwrap()
      return (body, response)
    }
  }
}

extension Optional {
  fileprivate func unwrap() throws -> Wrapped {
    guard let self else { throw URLError(.badServerResponse) }
    return self
  }
}
