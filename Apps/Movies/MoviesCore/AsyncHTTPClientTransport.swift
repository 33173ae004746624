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
    func failure(for error: any Error) -> MoviesError {
      if let failure { return failure }
      if let reader, (error as? HTTPClientError) != .cancelled { return reader.brokenOff }
      return AsyncHTTPClientTransport.describe(error)
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
