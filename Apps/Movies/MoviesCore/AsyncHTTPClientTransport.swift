#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// swift-server's AsyncHTTPClient as the client's transport: the default on Linux.
///
/// On Linux, Foundation's `URLSession` runs libcurl behind dispatch sources, and hands every
/// request from thread to thread: it took about 1.2 ms a page on loopback where curl took 0.5
/// ms. AsyncHTTPClient runs on SwiftNIO's event loop.
struct AsyncHTTPClientTransport: PageTransport {
  /// One client for the process, never shut down, as AsyncHTTPClient recommends.
  ///
  /// Its connection pool is kept from page to page. No decompression, so that the size limit and the announced
  /// length count the bytes sent; a connection that cannot be made fails the request at once
  /// (the client's retries are the page source's, ``ResilientPageSource``).
  private static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .follow(max: 5, allowCycles: false),
      timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10))
    )
    configuration.connectionPool.retryConnectionEstablishment = false
    return HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup,
      configuration: configuration
    )
  }()

  func fetch(
    _ fetch: PageFetch,
    check: @escaping @Sendable (ReplyHead) -> MoviesError?
  ) async -> Result<Data, MoviesError> {
    var request = HTTPClientRequest(url: fetch.url.absoluteString)
    request.method = .GET
    for (name, value) in fetch.headers { request.headers.add(name: name, value: value) }
    var reader: BodyReader?
    do {
      let response = try await Self.client.execute(request, deadline: Self.deadline(fetch.backstop))
      let head = ReplyHead(
        status: Int(response.status.code),
        contentType: response.headers.first(name: "Content-Type"),
        contentLength: response.headers.first(name: "Content-Length").flatMap { Int($0) },
        retryAfter: response.headers.first(name: "Retry-After")
      )
      // Leaving the body unread closes the connection: nothing more is read.
      if let failure = check(head) { return .failure(failure) }
      var body = BodyReader(head: head, limit: fetch.maxBodyBytes)
      if body.announcedTooLarge { return .failure(.bodyTooLarge(limit: body.limit)) }
      reader = body
      for try await chunk in response.body {
        if let failure = body.append(chunk.readableBytesView) { return .failure(failure) }
        reader = body
      }
      return body.finish()
    } catch {
      if let reader, !Task.isCancelled { return .failure(reader.brokenOff) }
      return .failure(Self.describe(error))
    }
  }

  /// The transport's deadline: the backstop from now, or none.
  static func deadline(_ backstop: Duration?) -> NIODeadline {
    guard let backstop else { return .distantFuture }
    let (seconds, attoseconds) = backstop.components
    guard seconds < 1_000_000_000 else { return .distantFuture }
    return .now() + .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }

  /// A failure before the head, as the client's typed error.
  static func describe(_ error: any Error) -> MoviesError {
    if let error = error as? HTTPClientError {
      switch error {
      case .deadlineExceeded, .readTimeout, .connectTimeout: return .timeout
      case .remoteConnectionClosed: return .transport("connection lost")
      case .cancelled: return .transport("cancelled")
      default: return .transport(String(describing: error))
      }
    }
    if error is CancellationError { return .transport("cancelled") }
    let text = String(describing: error)
    if text.contains("Connection refused") || text.contains("connection refused") {
      return .transport("connection refused")
    }
    if text.contains("UnknownHost") || text.contains("NXDOMAIN") || text.contains("getaddrinfo") {
      return .transport("unknown host")
    }
    return .transport(text.split(whereSeparator: \.isNewline).joined(separator: " "))
  }
}
#endif
