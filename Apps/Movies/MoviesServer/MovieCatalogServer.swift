import AppSupport
public import CascadeStreams
import FlyingFox
import FlyingSocks
public import Foundation
import MoviesCore

/// A movie catalog HTTP server in the shape of TMDB's discover endpoint, on FlyingFox.
///
/// It serves `GET /discover/movie?page=N` (and `/3/discover/movie`, TMDB's v3 path) as
/// `{ page, total_results, total_pages, results: [{ id, title, release_date, overview,
/// vote_average }] }`, and injects the ``ServerFaults`` it is given.
///
/// ```swift
/// let server = MovieCatalogServer(catalog: try .bundled())
/// let baseURL = try await server.start()       // http://127.0.0.1:<free port>
/// let client = try MoviesClient(baseURL: baseURL.absoluteString)
/// …
/// await server.stop()
/// ```
public final class MovieCatalogServer: Sendable {
  /// What the server lists.
  public let catalog: MovieCatalog
  private let state: LockedValue<ServerState>
  private let running = LockedValue<Running?>(nil)
  private let requestSubject = PublishSubject<Int, Never>()

  private struct ServerState {
    var faults: ServerFaults
    var generator: SplitMix64
    var failuresLeft: [Int: Int]
    var disconnectionsLeft: [Int: Int]
    var rateLimitsLeft: [Int: Int]
    var requests: [Int] = []
    /// Whether answers wait for ``releaseAnswers()``, and the requests waiting.
    var holding = false
    var held: [CheckedContinuation<Void, Never>] = []
  }

  private struct Running {
    var server: HTTPServer
    var task: Task<Void, Never>
    var baseURL: URL
  }

  /// Creates a server; it listens once started.
  public init(catalog: MovieCatalog, faults: ServerFaults = ServerFaults()) {
    self.catalog = catalog
    state = LockedValue(
      ServerState(
        faults: faults,
        generator: SplitMix64(seed: faults.seed),
        failuresLeft: faults.failingPages,
        disconnectionsLeft: faults.disconnectingPages,
        rateLimitsLeft: faults.rateLimitedPages
      )
    )
  }

  /// The faults injected now.
  public var faults: ServerFaults {
    get { state.withLock { $0.faults } }
    set {
      state.withLock { state in
        state.faults = newValue
        state.generator = SplitMix64(seed: newValue.seed)
        state.failuresLeft = newValue.failingPages
        state.disconnectionsLeft = newValue.disconnectingPages
        state.rateLimitsLeft = newValue.rateLimitedPages
      }
    }
  }

  /// The pages requested so far, in order.
  public var requestedPages: [Int] { state.withLock { $0.requests } }

  /// The page of each request, as it arrives (after ``requestedPages`` has it), before it is
  /// answered.
  ///
  /// ```swift
  /// let pages = server.requests.subscribe(onNext: { print("asked for page", $0) })
  /// ```
  public var requests: Observable<Int, Never> { requestSubject.asObservable() }

  /// Holds the answers to the requests from now on until ``releaseAnswers()``: for tests and
  /// demos that act while a page is in flight, whatever the speed of the machine.
  ///
  /// ```swift
  /// server.holdAnswers()
  /// movies.send(.loadNextPage)
  /// movies.send(.loadNextPage)  // while page 1 loads: ignored
  /// server.releaseAnswers()
  /// ```
  public func holdAnswers() {
    state.withLock { $0.holding = true }
  }

  /// Answers the requests held by ``holdAnswers()``, and the later ones at once.
  public func releaseAnswers() {
    let held = state.withLock { state in
      state.holding = false
      defer { state.held = [] }
      return state.held
    }
    for request in held { request.resume() }
  }

  /// The base URL, once started: `http://127.0.0.1:<port>`.
  public var baseURL: URL? { running.withLock { $0?.baseURL } }

  /// Why the server could not start.
  public struct StartError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String
  }

  /// Starts listening on `host` (an IPv4 address) and `port` (0: a free port), and returns the
  /// base URL with the port actually bound.
  ///
  /// It returns once the socket listens, however long a busy machine takes to get there: the
  /// wait ends when the server listens or fails to, never on a clock.
  ///
  /// - Throws: ``StartError`` if the address is invalid or in use, or the server cannot listen.
  @discardableResult
  public func start(host: String = "127.0.0.1", port: UInt16 = 0) async throws(StartError) -> URL {
    let address: sockaddr_in
    do {
      address = try .inet(ip4: host, port: port)
    } catch {
      throw StartError(description: "invalid IPv4 address '\(host)'")
    }
    let server = HTTPServer(
      address: address,
      timeout: 600,
      pool: NoDelaySocketPool(base: HTTPServer.defaultPool()),
      logger: .disabled
    )
    for path in ["/discover/movie", "/3/discover/movie"] {
      await server.appendRoute(HTTPRoute(method: .GET, path: path)) { [self] request in
        await self.respond(to: request)
      }
    }
    // Listening wakes the wait; a server that fails to start ends it too, recording why first.
    let failure = LockedValue<(any Error)?>(nil)
    // FlyingFox's wait needs a timeout: ~31 years, so that only listening or failing ends it.
    let listening = Task { try await server.waitUntilListening(timeout: 1e9) }
    let task = Task {
      do { try await server.run() } catch { failure.withLock { $0 = error } }
      listening.cancel()
    }
    do {
      try await listening.value
    } catch {
      if let error = failure.withLock({ $0 }) {
        throw StartError(description: "cannot listen on \(host):\(port): \(error)")
      }
      task.cancel()
      throw StartError(description: "the server stopped before listening on \(host):\(port)")
    }
    guard case .ip4(_, let boundPort) = await server.listeningAddress,
      let url = URL(string: "http://\(host):\(boundPort)")
    else {
      task.cancel()
      throw StartError(description: "cannot read the bound port back")
    }
    running.withLock { $0 = Running(server: server, task: task, baseURL: url) }
    return url
  }

  /// Stops listening and ends every connection, including pages that never answer.
  public func stop() async {
    guard
      let running = running.withLock({ running in
        defer { running = nil }
        return running
      })
    else { return }
    releaseAnswers()
    running.task.cancel()
    await running.server.stop(timeout: 0)
    await running.task.value
  }

  /// The answer to one request.
  func respond(to request: HTTPRequest) async -> HTTPResponse {
    let pageText = request.query["page"] ?? "1"
    guard let page = Int(pageText), page >= 1, page <= 500 else {
      return Self.json(
        status: .badRequest,
        #"{"status_code":22,"status_message":"Invalid page: pages start at 1 and max at 500."}"#
      )
    }
    enum Outcome { case page, fail, malformed, hang, disconnect, html, rateLimited }
    let (outcome, latency) = state.withLock { state -> (Outcome, Duration) in
      state.requests.append(page)
      let faults = state.faults
      if faults.hangingPages.contains(page) { return (.hang, faults.latency) }
      if let left = state.rateLimitsLeft[page], left > 0 {
        state.rateLimitsLeft[page] = left - 1
        return (.rateLimited, faults.latency)
      }
      if let left = state.failuresLeft[page], left > 0 {
        state.failuresLeft[page] = left - 1
        return (.fail, faults.latency)
      }
      if faults.failureRate > 0,
        Double.random(in: 0..<1, using: &state.generator) < faults.failureRate
      {
        return (.fail, faults.latency)
      }
      if faults.malformedPages.contains(page) { return (.malformed, faults.latency) }
      if faults.htmlPages.contains(page) { return (.html, faults.latency) }
      if let left = state.disconnectionsLeft[page], left > 0 {
        state.disconnectionsLeft[page] = left - 1
        return (.disconnect, faults.latency)
      }
      return (.page, faults.latency)
    }
    requestSubject.onNext(page)
    await withCheckedContinuation { (request: CheckedContinuation<Void, Never>) in
      let holding = state.withLock { state in
        if state.holding { state.held.append(request) }
        return state.holding
      }
      if !holding { request.resume() }
    }
    if latency > .zero { try? await Task.sleep(for: latency) }
    switch outcome {
    case .hang:
      // Never answers: waits until the server stops (which cancels it).
      while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
      return HTTPResponse(statusCode: .serviceUnavailable)
    case .fail:
      return Self.json(
        status: .internalServerError,
        #"{"status_code":11,"status_message":"Internal error: injected failure."}"#
      )
    case .malformed:
      return Self.json(status: .ok, #"{"page":\#(page),"results":[{"id":"#)
    case .rateLimited:
      var headers: HTTPHeaders = [.contentType: "application/json"]
      if let retryAfter = state.withLock({ $0.faults.retryAfter }) {
        headers[HTTPHeader("Retry-After")] = retryAfter
      }
      return HTTPResponse(
        statusCode: .tooManyRequests,
        headers: headers,
        body: Data(
          #"{"status_code":25,"status_message":"Your request count is over the limit."}"#.utf8
        )
      )
    case .html:
      return HTTPResponse(
        statusCode: .ok,
        headers: [.contentType: "text/html; charset=utf-8"],
        body: Data("<html><body><h1>Sign in to continue</h1></body></html>\n".utf8)
      )
    case .page, .disconnect:
      let body: Data
      do {
        body = try JSONEncoder().encode(catalog.page(page))
      } catch {
        return HTTPResponse(statusCode: .internalServerError)
      }
      if let padding = state.withLock({ $0.faults.oversizedPages[page] }) {
        let padded = PaddedBody(json: Array(body), size: max(padding.bytes, body.count))
        let sequence =
          padding.announced
          ? HTTPBodySequence(from: padded, count: padded.size, suggestedBufferSize: 65_536)
          : HTTPBodySequence(from: padded, suggestedBufferSize: 65_536)
        return HTTPResponse(
          statusCode: .ok,
          headers: [.contentType: "application/json"],
          body: sequence
        )
      }
      guard outcome == .disconnect else {
        return HTTPResponse(
          statusCode: .ok,
          headers: [.contentType: "application/json"],
          body: body
        )
      }
      // The headers announce the whole body; sending it fails halfway, and FlyingFox then
      // closes the connection.
      return HTTPResponse(
        statusCode: .ok,
        headers: [.contentType: "application/json"],
        body: HTTPBodySequence(from: BrokenBody(bytes: Array(body)), count: body.count)
      )
    }
  }

  private static func json(status: HTTPStatusCode, _ body: String) -> HTTPResponse {
    HTTPResponse(
      statusCode: status,
      headers: [.contentType: "application/json"],
      body: Data(body.utf8)
    )
  }
}

/// A page's JSON followed by spaces up to `size` bytes: valid JSON of any size, made as it is
/// sent.
private struct PaddedBody: AsyncBufferedSequence {
  typealias Element = UInt8

  /// The page.
  let json: [UInt8]
  /// The size of the whole body.
  let size: Int

  func makeAsyncIterator() -> Iterator {
    Iterator(json: json, size: size)
  }

  struct Iterator: AsyncBufferedIteratorProtocol {
    let json: [UInt8]
    let size: Int
    var sent = 0

    mutating func next() async throws -> UInt8? {
      guard sent < size else { return nil }
      defer { sent += 1 }
      return sent < json.count ? json[sent] : 0x20
    }

    mutating func nextBuffer(suggested count: Int) async throws -> ArraySlice<UInt8>? {
      guard sent < size else { return nil }
      let end = Swift.min(size, sent + Swift.max(1, count))
      var buffer: [UInt8] = []
      buffer.reserveCapacity(end - sent)
      if sent < json.count { buffer += json[sent..<Swift.min(end, json.count)] }
      buffer += repeatElement(0x20, count: end - sent - buffer.count)
      sent = end
      return buffer[...]
    }
  }
}

/// A body that gives the first half of its bytes, then fails as a dropped connection would.
private struct BrokenBody: AsyncBufferedSequence {
  typealias Element = UInt8

  /// The whole body; only the first half is given.
  let bytes: [UInt8]

  func makeAsyncIterator() -> Iterator {
    Iterator(remaining: bytes[..<(bytes.count / 2)])
  }

  struct Iterator: AsyncBufferedIteratorProtocol {
    var remaining: ArraySlice<UInt8>

    mutating func next() async throws -> UInt8? {
      guard let byte = remaining.popFirst() else { throw SocketError.disconnected }
      return byte
    }

    mutating func nextBuffer(suggested count: Int) async throws -> ArraySlice<UInt8>? {
      guard !remaining.isEmpty else { throw SocketError.disconnected }
      let buffer = remaining.prefix(Swift.max(1, count))
      remaining = remaining.dropFirst(buffer.count)
      return buffer
    }
  }
}
