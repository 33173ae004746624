import Foundation

/// The head of an HTTP answer: what the client checks before it reads the body.
struct ReplyHead: Sendable, Equatable {
  /// The status code.
  var status: Int
  /// The `Content-Type` header, if any.
  var contentType: String? = nil
  /// The `Content-Length` header, if any.
  var contentLength: Int? = nil
  /// The `Retry-After` header, if any.
  var retryAfter: String? = nil
}

/// One `GET` of a page, as the client asks its transport for it.
struct PageFetch: Sendable {
  /// The page's URL.
  var url: URL
  /// The request's headers.
  var headers: [String: String]
  /// The most bytes of body to read: the transport stops reading past them.
  var maxBodyBytes: Int
  /// How long the transport itself lets the request run: the page's timeout, or a backstop
  /// behind the client's own timer; `nil` for no limit.
  var backstop: Duration?
}

/// The HTTP client under ``MoviesClient``: it makes the request, hands the head to the client's
/// check, and reads the body within its size limit.
///
/// It calls back on its own thread (no hop to another one: a page takes a fraction of a
/// millisecond on loopback, and each hop costs tens of microseconds).
protocol PageTransport: Sendable {
  /// Starts fetching `fetch`: calls `check` with the head, and stops there with the failure
  /// `check` returns, if any; otherwise reads the body, and fails with
  /// ``MoviesError/bodyTooLarge(limit:)`` past ``PageFetch/maxBodyBytes`` and with
  /// ``MoviesError/truncatedBody(received:expected:)`` when the connection closes before its end.
  ///
  /// - Returns: A function that cancels the request; `completion` may still be called after it,
  ///   with a failure.
  func start(
    _ fetch: PageFetch,
    check: @escaping @Sendable (ReplyHead) -> MoviesError?,
    completion: @escaping @Sendable (Result<Data, MoviesError>) -> Void
  ) -> @Sendable () -> Void
}

/// What a transport reads of the body: the bytes, and why it stopped early.
struct BodyReader: Sendable {
  let head: ReplyHead
  let limit: Int
  private(set) var body = Data()

  init(head: ReplyHead, limit: Int) {
    self.head = head
    self.limit = limit
    if let length = head.contentLength, length > 0 { body.reserveCapacity(min(length, limit)) }
  }

  /// Whether the announced length is already over the limit.
  var announcedTooLarge: Bool { (head.contentLength ?? 0) > limit }

  /// Adds `bytes`; the failure when they take the body past the limit.
  mutating func append(_ bytes: some Sequence<UInt8>) -> MoviesError? {
    body.append(contentsOf: bytes)
    return body.count > limit ? .bodyTooLarge(limit: limit) : nil
  }

  /// The body once the transfer ended, or the failure when it is shorter than announced.
  func finish() -> Result<Data, MoviesError> {
    if let expected = head.contentLength, body.count < expected {
      return .failure(.truncatedBody(received: body.count, expected: expected))
    }
    return .success(body)
  }

  /// The failure when the transfer broke off after the head.
  var brokenOff: MoviesError {
    .truncatedBody(received: body.count, expected: head.contentLength)
  }
}
