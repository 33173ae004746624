import CascadeStreams
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw HTTP server on loopback that answers each request with whatever bytes a test gives it —
/// valid HTTP or not — one request per connection, on threads of its own (never on the
/// cooperative pool).
///
/// ```swift
/// let server = try HostileServer { page in .bytes(HostileServer.reply(status: "HELLO")) }
/// defer { server.stop() }
/// ```
final class HostileServer: Sendable {

  /// What the server does with a request.
  enum Answer: Sendable {
    /// Sends these bytes, then closes the connection.
    case bytes(Data)
    /// Sends these bytes, then keeps the connection open, saying nothing more, until ``stop()``.
    case hold(Data)
  }

  /// The port it listens on.
  let port: UInt16
  /// The base URL to give `movies --api`.
  var url: String { "http://127.0.0.1:\(port)" }

  private let listener: Int32
  private let answer: @Sendable (Int) -> Answer
  /// The connections held open until ``stop()``.
  private let held = LockedValue<[Int32]>([])
  /// The pages asked for.
  private let asked = LockedValue<[Int]>([])

  /// Listens on a free loopback port; `answer` gets the `page` of each request (0 if none).
  init(answer: @escaping @Sendable (_ page: Int) -> Answer) throws {
    self.answer = answer
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 64) == 0 else {
      close(listener)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(listener, $0, &length)
      }
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// The pages asked for, in the order the requests came.
  var pagesAsked: [Int] { asked.withLock { $0 } }

  /// Stops listening and closes the connections it holds.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    let connections = held.withLock { held in
      defer { held = [] }
      return held
    }
    for connection in connections {
      shutdown(connection, Int32(SHUT_RDWR))
      close(connection)
    }
  }

  private func acceptLoop() {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      let thread = Thread { [self] in serve(connection) }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    var request = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !request.contains(Data("\r\n\r\n".utf8)) {
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else {
        close(connection)
        return
      }
      request.append(contentsOf: buffer[0..<count])
    }
    let page = Self.page(in: String(decoding: request, as: UTF8.self))
    asked.withLock { $0.append(page) }
    switch answer(page) {
    case .bytes(let bytes):
      write(bytes, to: connection)
      shutdown(connection, Int32(SHUT_WR))
      // Let the client read everything before the connection goes.
      while read(connection, &buffer, buffer.count) > 0 {}
      close(connection)
    case .hold(let bytes):
      write(bytes, to: connection)
      held.withLock { $0.append(connection) }
    }
  }

  private func write(_ bytes: Data, to connection: Int32) {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let sent = send(connection, raw.baseAddress! + offset, raw.count - offset, Self.noSignal)
        guard sent > 0 else { return }
        offset += sent
      }
    }
  }

  /// `send`'s flag for no `SIGPIPE` when the client has gone.
  #if canImport(Glibc)
  static let noSignal = Int32(MSG_NOSIGNAL)
  #else
  static let noSignal: Int32 = 0
  #endif

  /// The `page` query parameter of a request's first line.
  static func page(in request: String) -> Int {
    guard let line = request.split(separator: "\r\n").first,
      let range = line.range(of: "page=")
    else { return 0 }
    return Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0
  }

  /// An HTTP reply: the status line, the headers, and the body, with `Content-Length` unless
  /// the headers give one.
  static func reply(
    status: String = "HTTP/1.1 200 OK",
    headers: [String] = ["Content-Type: application/json"],
    body: Data = Data()
  ) -> Data {
    var head = [status] + headers
    if !headers.contains(where: { $0.lowercased().hasPrefix("content-length:") }) {
      head.append("Content-Length: \(body.count)")
    }
    head.append("Connection: close")
    return Data((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
  }

  /// The JSON of a page of films `ids` (titled `Film N`, 2001, voted 7).
  static func page(_ number: Int, of totalPages: Int, ids: [Int]) -> Data {
    let films = ids.map {
      #"{"id": \#($0), "title": "Film \#($0)", "release_date": "2001-02-03", "#
        + #""overview": "", "vote_average": 7}"#
    }
    return Data(
      (#"{"page": \#(number), "total_pages": \#(totalPages), "#
        + #""total_results": \#(totalPages * 20), "results": [\#(films.joined(separator: ", "))]}"#)
        .utf8
    )
  }

  /// A well-formed reply with ``page(_:of:ids:)``'s JSON.
  static func pageReply(_ number: Int, of totalPages: Int, ids: [Int]) -> Data {
    reply(body: page(number, of: totalPages, ids: ids))
  }
}
