import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Hostile clients on real sockets: one that floods without reading, slow heads and bodies,
/// more connections than allowed, and ambiguous framing. Each asserts who is served and what is
/// answered, never how fast (speed is in `canary-bench soak`).
@Suite("server under abuse")
struct AbusiveClientTests {
  @Test func aClientThatPipelinesWithoutReadingIsHeldBackWhileAProbeIsServed() async throws {
    let server = try makeServer { $0.maxQueuedResponseBytes = 256 * 1024 }
    defer { server.stop() }
    let big = String(repeating: "x", count: 64 * 1024)
    server.on(.get, "/big", respond: .text(big))
    let count = 2000
    let flooder = try RawClient(port: server.port, receiveTimeout: 10)
    let flood = Array(String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: count).utf8)
    let floodFD = flooder.fd
    let sender = Thread {
      var offset = 0
      while offset < flood.count {
        let sent = flood.withUnsafeBytes {
          SystemCalls.send(floodFD, $0.baseAddress! + offset, $0.count - offset, SocketShims.sendFlags)
        }
        if sent <= 0 { return }
        offset += sent
      }
    }
    sender.start()
    let probe = try RawClient(port: server.port)
    for index in 0..<20 {
      probe.send("GET /probe\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(probe.readResponse()?.hasPrefix("HTTP/1.1 404") == true, "probe request \(index)")
    }
    // 2,000 answers of 64 KiB (125 MiB) cannot all fit in socket buffers plus 256 KiB: the server
    // stopped reading the flooder instead of queuing them.
    let answeredWhileFlooding = server.counters.requestsReceived - 20
    #expect(
      answeredWhileFlooding < count / 2, "\(answeredWhileFlooding) answered while the flooder did not read")
    let answers = try #require(flooder.readResponses(count))
    #expect(answers.count == count)
    #expect(answers.allSatisfy { $0.hasSuffix("xxxx") })
    #expect(server.counters.requestsReceived == count + 20)
  }

  @Test func aHeadTricklingInIsAnswered408AtItsDeadline() throws {
    let server = try makeServer { $0.requestHeadTimeout = .milliseconds(300) }
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
    for _ in 0..<12 {
      client.send("X")  // a byte every 100 ms: never idle, never done
      usleep(100_000)
    }
    let reply = client.readToEnd()
    #expect(reply.closed)
    #expect(reply.text.hasPrefix("HTTP/1.1 408 "))
    let recorded = try #require(server.requests.first)
    #expect(recorded.malformed?.contains("request head not complete") == true)
    #expect(server.counters.requestsTimedOut == 1)
  }

  @Test func aBodyTricklingInIsAnswered408AtItsDeadline() throws {
    let server = try makeServer { $0.requestBodyTimeout = .milliseconds(300) }
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
    for _ in 0..<12 {
      client.send("b")
      usleep(100_000)
    }
    let reply = client.readToEnd()
    #expect(reply.closed)
    #expect(reply.text.hasPrefix("HTTP/1.1 408 "))
    #expect(server.requests.first?.malformed?.contains("request body not complete") == true)
    #expect(server.requests.first?.path == "/slow")
  }

  @Test func aFastRequestIsNotHeldToTheDeadlinesOfSlowOnes() throws {
    let server = try makeServer {
      $0.requestHeadTimeout = .milliseconds(300)
      $0.requestBodyTimeout = .milliseconds(300)
    }
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    for _ in 0..<4 {
      client.send("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok")
      #expect(client.readResponse()?.hasPrefix("HTTP/1.1 404") == true)
      usleep(150_000)  // 600 ms on one connection in all, each request well within its deadlines
    }
    #expect(server.counters.requestsTimedOut == 0)
  }

  @Test func blankLinesDoNotKeepAnIdleConnectionOpen() throws {
    let server = try makeServer { $0.idleTimeout = .milliseconds(300) }
    defer { server.stop() }
    let client = try RawClient(port: server.port, receiveTimeout: 0.05)
    var closed = false
    for _ in 0..<40 where !closed {
      client.send("\r\n")
      closed = client.readToEnd().closed
      usleep(50_000)
    }
    #expect(closed, "a CRLF every 100 ms kept the connection open for 4 s")
    #expect(server.requests.isEmpty)
  }

  @Test func pastTheConnectionCapTheSlowestPartialRequestIsShed() throws {
    let server = try makeServer { $0.maxConnections = 4 }
    defer { server.stop() }
    var slow: [RawClient] = []
    for index in 0..<4 {
      let client = try RawClient(port: server.port, receiveTimeout: 0.3)
      client.send("GET /slow\(index) HTTP/1.1\r\nHost: x\r\nX-Slow: ")
      slow.append(client)
      usleep(20_000)
    }
    let probe = try RawClient(port: server.port)
    probe.send("GET /probe HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(probe.readResponse()?.hasPrefix("HTTP/1.1 404") == true)
    #expect(slow[0].readToEnd().closed, "the oldest partial request was shed")
    #expect(!slow[3].readToEnd().closed, "a younger one is still open")
    #expect(server.counters.connectionsShed == 1)
    let shed = try #require(server.requests.first { $0.raw.starts(with: Data("GET /slow0 ".utf8)) })
    #expect(shed.malformed?.contains("make room") == true)
  }

  @Test func pastTheConnectionCapALongIdleConnectionGoesBeforeARequestJustBegun() throws {
    let server = try makeServer { $0.maxConnections = 4 }
    defer { server.stop() }
    var idle: [RawClient] = []
    for _ in 0..<3 {
      let client = try RawClient(port: server.port, receiveTimeout: 0.3)
      client.send("GET /idle HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(client.readResponse() != nil)
      idle.append(client)
      usleep(20_000)
    }
    let slow = try RawClient(port: server.port, receiveTimeout: 0.3)
    slow.send("GET /slow HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    usleep(20_000)
    let probe = try RawClient(port: server.port)
    probe.send("GET /probe HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(probe.readResponse()?.hasPrefix("HTTP/1.1 404") == true)
    #expect(idle[0].readToEnd().closed)
    #expect(!slow.readToEnd().closed)
    #expect(server.counters.connectionsShed == 1)
  }

  @Test func pastTheConnectionCapASlowRequestGoesBeforeAConnectionJustServed() throws {
    let server = try makeServer { $0.maxConnections = 4 }
    defer { server.stop() }
    let slow = try RawClient(port: server.port, receiveTimeout: 0.3)
    slow.send("GET /slow HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    usleep(20_000)
    var served: [RawClient] = []
    for _ in 0..<3 {
      let client = try RawClient(port: server.port, receiveTimeout: 0.3)
      client.send("GET /served HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(client.readResponse() != nil)
      served.append(client)
    }
    let probe = try RawClient(port: server.port)
    probe.send("GET /probe HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(probe.readResponse()?.hasPrefix("HTTP/1.1 404") == true)
    #expect(slow.readToEnd().closed)
    #expect(!served[0].readToEnd().closed)
    #expect(server.counters.connectionsShed == 1)
  }

  @Test func theDefaultCapStaysBelowTheDescriptorLimit() {
    #expect(EventLoop.connectionCap(configured: nil, descriptorLimit: 256) == 224)
    #expect(EventLoop.connectionCap(configured: 10_000, descriptorLimit: 256) == 224)
    #expect(EventLoop.connectionCap(configured: 10, descriptorLimit: 256) == 10)
    #expect(EventLoop.connectionCap(configured: nil, descriptorLimit: 16_384) == 14_336)
  }

  @Test(arguments: [
    ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", "400", "both"),
    ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", "400", "both"),
    ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "501", "gzip"),
    (
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n", "501",
      "gzip"
    ),
    ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", "400", "more than once"),
    ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", "400", "does not end"),
    ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", "400", "HTTP/1.0"),
  ])
  func ambiguousFramingIsRefusedAndTheConnectionCloses(head: String, status: String, reason: String) throws {
    let server = try makeServer()
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    // What follows would be a second, smuggled request if the first were framed either way.
    client.send(head + "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n")
    let reply = client.readToEnd()
    #expect(reply.closed)
    #expect(reply.text.hasPrefix("HTTP/1.1 \(status) "), "\(reply.text)")
    #expect(!reply.text.contains("no route"))
    #expect(server.requests.count == 1)
    #expect(server.requests.first?.malformed?.contains(reason) == true)
    #expect(!server.requests.contains { $0.path == "/smuggled" })
  }

  @Test func plainChunkedIsStillDecoded() throws {
    let server = try makeServer()
    defer { server.stop() }
    let client = try RawClient(port: server.port)
    client.send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
    #expect(client.readResponse()?.hasPrefix("HTTP/1.1 404") == true)
    #expect(server.requests.first?.bodyText == "abc")
  }
}
