import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 answer read from a loopback server.
struct HTTPAnswer: Sendable {
  var status: Int
  /// The headers, names in lower case.
  var headers: [String: String]
  var body: Data

  var text: String { String(decoding: body, as: UTF8.self) }

  /// The body as a JSON object.
  func json() throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
      throw LoopbackHTTPError(description: "not a JSON object: \(text.prefix(200))")
    }
    return object
  }
}

struct LoopbackHTTPError: Error, CustomStringConvertible {
  var description: String
}

/// Sends one request to `127.0.0.1:port` over a plain socket and reads the whole answer.
///
/// The request has exactly the `Host` header and cookie given (which URLSession would not let a
/// test forge) and `Connection: close`. A read waits at most 180 seconds (a safety net: a
/// debug build warming a long recording on a machine whose every core is busy is slow).
func loopbackRequest(
  port: UInt16,
  path: String,
  method: String = "GET",
  host: String? = nil,
  cookie: String? = nil,
  headers: [String: String] = [:],
  body: Data? = nil
) throws -> HTTPAnswer {
  let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard socket >= 0 else { throw LoopbackHTTPError(description: "socket: errno \(errno)") }
  defer { close(socket) }
  var timeout = timeval(tv_sec: 180, tv_usec: 0)
  setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = port.bigEndian
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else { throw LoopbackHTTPError(description: "connect: errno \(errno)") }
  var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
  if let cookie { request += "Cookie: \(cookie)\r\n" }
  for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
    request += "\(name): \(value)\r\n"
  }
  if let body { request += "Content-Length: \(body.count)\r\n" }
  request += "Connection: close\r\n\r\n"
  let bytes = Array(request.utf8) + Array(body ?? Data())
  var sent = 0
  while sent < bytes.count {
    let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { throw LoopbackHTTPError(description: "send: errno \(errno)") }
    sent += count
  }
  var answer = Data()
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
    if count < 0 && errno == EINTR { continue }
    guard count >= 0 else { throw LoopbackHTTPError(description: "recv: errno \(errno)") }
    if count == 0 { break }
    answer.append(contentsOf: buffer[..<count])
  }
  return try parse(answer)
}

private func parse(_ answer: Data) throws -> HTTPAnswer {
  guard let end = answer.firstRange(of: Data("\r\n\r\n".utf8)) else {
    throw LoopbackHTTPError(description: "no header end in \(answer.count) bytes")
  }
  let head = String(decoding: answer[..<end.lowerBound], as: UTF8.self)
  var lines = head.components(separatedBy: "\r\n")
  let statusLine = lines.removeFirst().split(separator: " ")
  guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
    throw LoopbackHTTPError(description: "bad status line: \(head.prefix(100))")
  }
  var headers: [String: String] = [:]
  for line in lines {
    guard let colon = line.firstIndex(of: ":") else { continue }
    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
      .trimmingCharacters(in: .whitespaces)
  }
  var body = Data(answer[end.upperBound...])
  if let length = headers["content-length"].flatMap(Int.init), body.count > length {
    body = body.prefix(length)
  }
  return HTTPAnswer(status: status, headers: headers, body: body)
}
