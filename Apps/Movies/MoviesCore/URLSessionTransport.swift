import CascadeStreams
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Foundation's `URLSession` as the client's transport: the default on Apple platforms.
///
/// A session delegate sees the head before the body, so that a failed status, a type that is
/// not JSON or a body announced too large stops the task before its body is read, and counts
/// the body as it comes, so that a body past the limit stops it too.
///
/// On Linux (FoundationNetworking) it never calls a task's `cancel()`: there, a cancel that
/// races with the task's own end crashes the process ("Trying to access a behaviour for a task
/// that in not in the registry", swift-corelibs-foundation issue 3296; `cancel()` checks the
/// task's state, then reports the failure later on its queue, when the task may be gone).
/// `MoviesTransportConcurrencyTests` crashed that way. A request that is cancelled, or stopped
/// by its head or its size, is abandoned instead: its outcome is reported at once (or not at
/// all, when cancelled), and the task reads on to its end or its backstop with its bytes
/// dropped. AsyncHTTPClient, the default transport on Linux, cancels for real.
final class URLSessionTransport: PageTransport {
  private let session: URLSession
  private let exchanges: Exchanges

  /// A session whose own limit is `backstop` (none when `nil`).
  init(backstop: Duration?) {
    let configuration = URLSessionConfiguration.ephemeral
    if let backstop {
      let (seconds, attoseconds) = backstop.components
      configuration.timeoutIntervalForRequest = Double(seconds) + Double(attoseconds) / 1e18
    } else {
      configuration.timeoutIntervalForRequest = .greatestFiniteMagnitude
    }
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    exchanges = Exchanges()
    session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
  }

  deinit {
    // The session holds its delegate until it is invalidated.
    session.finishTasksAndInvalidate()
  }

  func start(
    _ fetch: PageFetch,
    check: @escaping @Sendable (ReplyHead) -> MoviesError?,
    completion: @escaping @Sendable (Result<Data, MoviesError>) -> Void
  ) -> @Sendable () -> Void {
    var request = URLRequest(url: fetch.url)
    for (name, value) in fetch.headers { request.setValue(value, forHTTPHeaderField: name) }
    let task = TaskBox(session.dataTask(with: request))
    exchanges.begin(
      task.task.taskIdentifier,
      Exchange(limit: fetch.maxBodyBytes, check: check, completion: completion)
    )
    task.task.resume()
    #if canImport(FoundationNetworking)
    let exchanges = exchanges
    let id = task.task.taskIdentifier
    return { exchanges.abandon(id) }
    #else
    return { task.task.cancel() }
    #endif
  }

  /// A task, handed to the function that cancels it.
  private struct TaskBox: @unchecked Sendable {
    // Safety: `URLSessionTask` is thread-safe; it only lacks the annotation on Linux.
    let task: URLSessionDataTask
    init(_ task: URLSessionDataTask) { self.task = task }
  }

  /// One task's exchange: its check, its body so far, and who waits for the outcome.
  struct Exchange {
    let limit: Int
    let check: @Sendable (ReplyHead) -> MoviesError?
    let completion: @Sendable (Result<Data, MoviesError>) -> Void
    var reader: BodyReader?
    var failure: MoviesError?

    init(
      limit: Int,
      check: @escaping @Sendable (ReplyHead) -> MoviesError?,
      completion: @escaping @Sendable (Result<Data, MoviesError>) -> Void
    ) {
      self.limit = limit
      self.check = check
      self.completion = completion
    }
  }

  /// The session's delegate: the exchanges in flight, by task.
  final class Exchanges: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = LockedValue<[Int: Exchange]>([:])

    func begin(_ task: Int, _ exchange: Exchange) {
      exchanges.withLock { $0[task] = exchange }
    }

    /// Forgets the exchange of `task`: nothing more is reported for it.
    func abandon(_ task: Int) {
      _ = exchanges.withLock { $0.removeValue(forKey: task) }
    }

    /// Stops `task`, whose exchange has failed: cancels it where that is safe, or reports the
    /// failure now and abandons it (see ``URLSessionTransport``).
    private func stop(_ task: URLSessionDataTask) {
      #if canImport(FoundationNetworking)
      guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }),
        let failure = exchange.failure
      else { return }
      exchange.completion(.failure(failure))
      #else
      task.cancel()
      #endif
    }

    func urlSession(
      _ session: URLSession,
      dataTask: URLSessionDataTask,
      didReceive response: URLResponse,
      completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
      guard let http = response as? HTTPURLResponse else {
        exchanges.withLock { $0[dataTask.taskIdentifier]?.failure = .transport("no HTTP response") }
        completionHandler(.cancel)
        stop(dataTask)
        return
      }
      let head = ReplyHead(
        status: http.statusCode,
        contentType: http.value(forHTTPHeaderField: "Content-Type"),
        contentLength: http.expectedContentLength >= 0 ? Int(http.expectedContentLength) : nil,
        retryAfter: http.value(forHTTPHeaderField: "Retry-After")
      )
      let allowed = exchanges.withLock { exchanges -> Bool in
        guard var exchange = exchanges[dataTask.taskIdentifier] else { return false }
        let reader = BodyReader(head: head, limit: exchange.limit)
        exchange.reader = reader
        exchange.failure =
          exchange.check(head)
          ?? (reader.announcedTooLarge ? .bodyTooLarge(limit: reader.limit) : nil)
        exchanges[dataTask.taskIdentifier] = exchange
        return exchange.failure == nil
      }
      completionHandler(allowed ? .allow : .cancel)
      // FoundationNetworking ignores the disposition and goes on reading the body.
      if !allowed { stop(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      let tooLarge = exchanges.withLock { exchanges -> Bool in
        guard var exchange = exchanges[dataTask.taskIdentifier], exchange.failure == nil,
          var reader = exchange.reader
        else { return false }
        exchange.failure = reader.append(data)
        exchange.reader = reader
        exchanges[dataTask.taskIdentifier] = exchange
        return exchange.failure != nil
      }
      if tooLarge { stop(dataTask) }
    }

    func urlSession(
      _ session: URLSession,
      task: URLSessionTask,
      didCompleteWithError error: (any Error)?
    ) {
      guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) })
      else { return }
      exchange.completion(Self.outcome(of: exchange, error: error))
    }

    static func outcome(of exchange: Exchange, error: (any Error)?) -> Result<Data, MoviesError> {
      if let failure = exchange.failure { return .failure(failure) }
      if let urlError = error as? URLError, urlError.code == .timedOut { return .failure(.timeout) }
      if let urlError = error as? URLError,
        let malformed = malformedReply(urlError, headRead: exchange.reader != nil)
      {
        return .failure(.malformedReply(malformed))
      }
      guard let reader = exchange.reader else {
        return .failure(.transport(error.map(describe) ?? "no HTTP response"))
      }
      if error != nil { return .failure(reader.brokenOff) }
      return reader.finish()
    }

    /// What is wrong with a reply that is not valid HTTP or leads nowhere, in a few words;
    /// `nil` for an error that is not about the reply (the server cannot be reached, the
    /// connection broke).
    ///
    /// On Linux, libcurl's failures to parse a head (a garbage status line, header bytes that
    /// are not allowed, a negative `Content-Length`) reach us as `unknown` (or `unsupportedURL`
    /// for a reply that is not HTTP/1.x), with no more detail; a server that cannot be reached
    /// has codes of its own, so an unknown failure before any head is a reply that is not HTTP.
    static func malformedReply(_ error: URLError, headRead: Bool) -> String? {
      switch error.code {
      case .badServerResponse, .cannotParseResponse: "not valid HTTP"
      case .unknown, .unsupportedURL: headRead ? nil : "not valid HTTP"
      case .httpTooManyRedirects: "its redirects go round in a loop, or are too many"
      case .redirectToNonExistentLocation: "a redirect without a location"
      default: nil
      }
    }

    /// A transport error, in a few words.
    static func describe(_ error: any Error) -> String {
      guard let urlError = error as? URLError else { return String(describing: error) }
      switch urlError.code {
      case .cannotConnectToHost: return "connection refused"
      case .cannotFindHost: return "unknown host"
      case .networkConnectionLost: return "connection lost"
      case .notConnectedToInternet: return "not connected to the network"
      case .cancelled: return "cancelled"
      default: return "URL error \(urlError.code.rawValue)"
      }
    }
  }
}
