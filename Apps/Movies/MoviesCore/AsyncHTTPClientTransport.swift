#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// swift-server's AsyncHTTPClient as the client's transport: the default on Linux.
///
/// On Linux, Foundation's `URLSession` runs libcurl behind dispatch sources, and hands every
/// request from thread to thread: it took about 1.2 ms a page on loopback where curl took 0.5
/// ms. AsyncHTTPClient runs on SwiftNIO's event loop; its delegate API reads the answer there,
/// and the page is decoded and delivered from there, without another thread.
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

  func start(
    _ fetch: PageFetch,
    check: @escaping @Sendable (ReplyHead) -> MoviesError?,
    completion: @escaping @Sendable (Result<Data, MoviesError>) -> Void
  ) -> @Sendable () -> Void {
    let request: HTTPClient.Request
    do {
      request = try HTTPClient.Request(
        url: fetch.url.absoluteString,
        method: .GET,
        headers: HTTPHeaders(fetch.headers.map { ($0.key, $0.value) })
      )
    } catch {
      completion(.failure(Self.describe(error)))
      return {}
    }
    let delegate = PageDelegate(limit: fetch.maxBodyBytes, check: check)
    let task = Self.client.execute(
      request: request,
      delegate: delegate,
      deadline: Self.deadline(fetch.backstop)
    )
    // On the delegate's event loop, after its last call.
    task.futureResult.whenComplete { result in
      completion(result.mapError { delegate.failure(for: $0) })
    }
    return { task.cancel() }
  }

  /// Reads one answer on its event loop: checks the head, counts the body.
  final class PageDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    // Safety: AsyncHTTPClient calls a delegate on one event loop, one call after another, and
    // completes the task's future on that loop after the last call.
    typealias Response = Data

    private let limit: Int
    private let check: @Sendable (ReplyHead) -> MoviesError?
    private var reader: BodyReader?
    private var failure: MoviesError?

    /// The error a delegate fails the request with once it has a ``MoviesError``.
    struct Stop: Error {}

    init(limit: Int, check: @escaping @Sendable (ReplyHead) -> MoviesError?) {
      self.limit = limit
      self.check = check
    }

    func didReceiveHead(
      task: HTTPClient.Task<Data>,
      _ head: HTTPResponseHead
    ) -> EventLoopFuture<Void> {
      let reply = ReplyHead(
        status: Int(head.status.code),
        contentType: head.headers.first(name: "Content-Type"),
        contentLength: head.headers.first(name: "Content-Length").flatMap { Int($0) },
        retryAfter: head.headers.first(name: "Retry-After")
      )
      let body = BodyReader(head: reply, limit: limit)
      reader = body
      failure = check(reply) ?? (body.announcedTooLarge ? .bodyTooLarge(limit: limit) : nil)
      return failure == nil
        ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(Stop())
    }

    func didReceiveBodyPart(
      task: HTTPClient.Task<Data>,
      _ buffer: ByteBuffer
    ) -> EventLoopFuture<Void> {
      failure = reader?.append(buffer.readableBytesView)
      return failure == nil
        ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(Stop())
    }

    func didFinishRequest(task: HTTPClient.Task<Data>) throws -> Data {
      switch reader?.finish() {
      case .success(let body)?: return body
      case .failure(let error)?:
        failure = error
        throw Stop()
      case nil:
        failure = .transport("no HTTP response")
        throw Stop()
      }
    }

    /// The typed failure for the error the request failed with.
    ///
    /// A deadline that passes mid-body is a timeout, and a reply that stops being HTTP mid-body
    /// is malformed; only a connection that closes after the head cuts the reply short.
    func failure(for error: any Error) -> MoviesError {
      if let failure { return failure }
      let described = AsyncHTTPClientTransport.describe(error)
      switch described {
      case .timeout, .malformedReply: return described
      default: break
      }
      if let reader, (error as? HTTPClientError) != .cancelled { return reader.brokenOff }
      return described
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
  ///
  /// An answer that is not HTTP (a garbage status line, header bytes that are not allowed, a
  /// negative `Content-Length`) or a redirect that leads nowhere is a malformed reply; only a
  /// server that cannot be reached or a connection that breaks is a transport failure.
  static func describe(_ error: any Error) -> MoviesError {
    if let error = error as? HTTPParserError {
      switch error {
      // The connection closed mid-reply: a reply cut short (or lost), not a malformed one.
      case .invalidEOFState, .closedConnection: return .transport("connection lost")
      default: return .malformedReply(describe(error))
      }
    }
    if let error = error as? HTTPClientError {
      switch error {
      case .deadlineExceeded, .readTimeout, .connectTimeout: return .timeout
      case .remoteConnectionClosed: return .transport("connection lost")
      case .cancelled: return .transport("cancelled")
      case .redirectCycleDetected: return .malformedReply("its redirects go round in a loop")
      case .redirectLimitReached: return .malformedReply("more than 5 redirects")
      case .invalidURL, .emptyHost, .emptyScheme:
        return .malformedReply("a redirect to an address that cannot be fetched")
      case .bodyLengthMismatch, .contentLengthMissing:
        return .malformedReply("the body does not match its headers")
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

  /// What an HTTP parser error says about the reply, in a few words.
  static func describe(_ error: HTTPParserError) -> String {
    switch error {
    case .invalidStatus, .invalidVersion, .invalidConstant: "the status line is not HTTP"
    case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected:
      "a header has bytes that are not allowed"
    case .invalidContentLength, .unexpectedContentLength: "its Content-Length is not valid"
    case .headerOverflow: "its headers are too large"
    case .invalidChunkSize: "a chunk size is not valid"
    case .trailingGarbage: "bytes after the end of the reply"
    default: "not valid HTTP (\(error))"
    }
  }
}
#endif
