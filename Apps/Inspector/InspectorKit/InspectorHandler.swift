import CascadeStreams
import FlyingFox
import Foundation
import InspectorLink

/// Answers every request to the inspector: refuses those that are not `GET`, not addressed to
/// the loopback host and port, or without the token; serves the page, its assets and the API.
final class InspectorHandler: HTTPHandler, Sendable {
  /// The cookie that carries the token after the first page load, named after the port:
  /// browsers share a host's cookies between its ports, and two inspectors may run at once.
  static func cookieName(port: UInt16) -> String { "cascade-inspect-token-\(port)" }

  let token: String
  /// What is inspected (an import replaces it).
  let slot: InspectionSlot
  var api: any InspectionAPI { slot.api }
  /// The port bound, once listening: the `Host` header must name it.
  let port = LockedValue<UInt16>(0)

  init(token: String, slot: InspectionSlot) {
    self.token = token
    self.slot = slot
  }

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    let port = port.withLock { $0 }
    guard LoopbackServer.isAddressedToLoopback(request, port: port) else {
      return Self.text(.misdirectedRequest, "this inspector answers only 127.0.0.1:\(port)")
    }
    if request.method == .POST, request.path.hasPrefix(Self.replayPrefix) {
      return await replay(request)
    }
    if request.method == .POST,
      let edit = [Self.skipPrefix, Self.commitPrefix].first(where: request.path.hasPrefix)
    {
      return self.edit(request, prefix: edit)
    }
    if request.method == .POST, request.path == "/api/import" {
      return await importRecording(request)
    }
    if request.method == .POST, request.path == "/api/timing" {
      return await timing(request)
    }
    guard request.method == .GET else {
      return Self.text(.methodNotAllowed, "the inspector only answers GET")
    }
    let fromQuery = request.query["token"]
    guard LoopbackServer.same(fromQuery ?? cookie(of: request, port: port) ?? "", token) else {
      return Self.text(.forbidden, "open the URL cascade-inspect printed, with its token")
    }
    var response = try await route(request)
    if fromQuery != nil {
      response.headers[.setCookie] =
        "\(Self.cookieName(port: port))=\(token); Path=/; HttpOnly; SameSite=Strict"
    }
    return Self.secured(response)
  }

  /// The longest search text `/api/steps` takes.
  static let searchLimit = 200

  /// The path of "replay to here": `POST /api/replay/I`.
  static let replayPrefix = "/api/replay/"

  /// The paths of "skip" and "commit": `POST /api/skip/I` (again to bring the step back) and
  /// `POST /api/commit/I`.
  static let skipPrefix = "/api/skip/"
  static let commitPrefix = "/api/commit/"

  /// Skip or commit, on a recording: only with the token in the `X-Cascade-Token` header (see
  /// ``replay(_:)``).
  private func edit(_ request: HTTPRequest, prefix: String) -> HTTPResponse {
    if let refusal = refusal(of: request, "a skip or commit") { return refusal }
    guard let step = Int(request.path.dropFirst(prefix.count)), step >= 0 else {
      return Self.secured(Self.text(.badRequest, "no step named \(request.path)"))
    }
    let answer = prefix == Self.skipPrefix ? api.toggleSkip(step) : api.commit(at: step)
    guard let answer else {
      return Self.secured(
        Self.text(
          .notFound,
          "step \(step) cannot be skipped or committed: skip and commit need a recording's "
            + "step after the start, not a live app's"
        )
      )
    }
    return Self.secured(Self.json(answer))
  }

  /// Timing, live: `POST /api/timing?on=true|false`.
  ///
  /// Asks the app to time its inputs for the trace from now on, or no longer; only with the
  /// token in the `X-Cascade-Token` header (see ``replay(_:)``). `GET /api/timing` reads what
  /// this inspector asks.
  private func timing(_ request: HTTPRequest) async -> HTTPResponse {
    if let refusal = refusal(of: request, "timing the app") { return refusal }
    guard let on = request.query["on"].flatMap(Bool.init) else {
      return Self.secured(Self.text(.badRequest, "on is true or false"))
    }
    return Self.secured(await timingAnswer(on))
  }

  /// `{"asked":B,"timed":B}` (`timed` only when the app was asked), or why there is no app.
  private func timingAnswer(_ on: Bool?) async -> HTTPResponse {
    do {
      let (asked, timed) = try await api.timing(on)
      var answer: [String: Any] = ["asked": asked]
      if let timed { answer["timed"] = timed }
      return Self.json(
        (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys]))
          ?? Data("{}".utf8)
      )
    } catch {
      return Self.text(.notFound, error.description)
    }
  }

  /// Import: the request's body is a recording (an export, a flight recorder's file, an app's
  /// session), inspected from now on; only with the token in the `X-Cascade-Token` header.
  private func importRecording(_ request: HTTPRequest) async -> HTTPResponse {
    if let refusal = refusal(of: request, "an import") { return refusal }
    if let length = request.headers[.contentLength].flatMap({ Int($0) }),
      length > InspectionSlot.importLimit
    {
      return Self.secured(
        Self.text(
          .payloadTooLarge,
          "the imported recording is larger than \(InspectionSlot.importLimit >> 20) MiB"
        )
      )
    }
    do {
      try await slot.importRecording(request.bodySequence)
    } catch {
      return Self.secured(Self.text(.unprocessableContent, error.description))
    }
    return Self.secured(Self.json(api.summary()))
  }

  /// "Replay to here", live: only with the token in the `X-Cascade-Token` header, which a page
  /// of another site cannot send without the browser asking this server first (and this server
  /// answers no such question), so a cookie alone never makes a replay.
  private func replay(_ request: HTTPRequest) async -> HTTPResponse {
    if let refusal = refusal(of: request, "a replay") { return refusal }
    guard api.isLive else {
      return Self.secured(Self.text(.notFound, "replay to here needs a live app (--live)"))
    }
    guard let step = Int(request.path.dropFirst(Self.replayPrefix.count)), step >= 0 else {
      return Self.secured(Self.text(.badRequest, "no step named \(request.path)"))
    }
    return Self.secured(Self.json(await api.replay(toStep: step)))
  }

  /// The refusal of `request`, which changes something (`what` it asks, for the message),
  /// without the token in the `X-Cascade-Token` header; `nil` when it carries the token.
  private func refusal(of request: HTTPRequest, _ what: String) -> HTTPResponse? {
    guard !LoopbackServer.same(request.headers[HTTPHeader("X-Cascade-Token")] ?? "", token)
    else { return nil }
    return Self.secured(
      Self.text(.forbidden, "\(what) needs the token in the X-Cascade-Token header")
    )
  }

  /// `response` with the headers every answer carries.
  private static func secured(_ response: HTTPResponse) -> HTTPResponse {
    var response = response
    response.headers[HTTPHeader("Cache-Control")] = "no-store"
    response.headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
    response.headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
    response.headers[HTTPHeader("X-Frame-Options")] = "DENY"
    response.headers[HTTPHeader("Content-Security-Policy")] =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
      + "img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    return response
  }

  private func route(_ request: HTTPRequest) async throws -> HTTPResponse {
    switch request.path {
    case "/", "/index.html": return Self.asset(InspectorPage.html, type: "text/html; charset=utf-8")
    case "/inspector.css": return Self.asset(InspectorPage.css, type: "text/css; charset=utf-8")
    case "/inspector.js":
      return Self.asset(InspectorPage.javaScript, type: "text/javascript; charset=utf-8")
    case "/trace.html": return Self.asset(TracePage.html, type: "text/html; charset=utf-8")
    case "/trace.js":
      return Self.asset(TracePage.javaScript, type: "text/javascript; charset=utf-8")
    case "/api/summary":
      // Live, `?beyond=N` waits for a step beyond the first N (or the app's end): the page
      // and the tests wait on the steps themselves, not on a clock.
      // A minute at most (a safety net): then it answers with the steps there are.
      if let beyond = request.query["beyond"].flatMap({ Int($0) }) {
        let api = api
        await withTaskGroup(of: Void.self) { group in
          group.addTask { await api.waitForSteps(beyond: beyond) }
          group.addTask { try? await Task.sleep(for: .seconds(60)) }
          await group.next()
          group.cancelAll()
        }
      }
      return Self.json(api.summary())
    case "/api/export":
      do {
        return Self.attachment(
          try api.export(),
          type: "application/jsonl; charset=utf-8",
          named: "cascade-session.jsonl"
        )
      } catch {
        return Self.text(.unprocessableContent, "the session cannot be exported: \(error)")
      }
    case "/api/export-test":
      let test: (name: String, source: String)?
      do {
        test = try await api.exportTest()
      } catch {
        return Self.text(.unprocessableContent, error.description)
      }
      guard let test else {
        return Self.text(
          .notFound,
          "a test is made of an app's session recording (rpg, movies, todo) only"
        )
      }
      return Self.attachment(
        Data(test.source.utf8),
        type: "text/x-swift; charset=utf-8",
        named: test.name
      )
    case "/api/trace":
      let last = request.query["last"].map { Int($0) } ?? 10_000
      guard let last, (1...LiveInspector.traceLimit).contains(last) else {
        return Self.text(
          .badRequest,
          "last is a number of inputs from 1 to \(LiveInspector.traceLimit)"
        )
      }
      do {
        return Self.attachment(
          try await api.trace(last: last),
          type: "application/json; charset=utf-8",
          named: "cascade-trace.json"
        )
      } catch {
        return Self.text(.notFound, error.description)
      }
    case "/api/timing":
      return await timingAnswer(nil)
    case "/api/steps":
      let from = request.query["from"].flatMap { Int($0) } ?? 0
      let count = request.query["count"].flatMap { Int($0) } ?? 100
      var kind: StepKind?
      if let name = request.query["kind"], !name.isEmpty {
        guard let named = StepKind(name: name) else {
          return Self.text(.badRequest, "no input kind named \(name)")
        }
        kind = named
      }
      let search = request.query["search"] ?? ""
      guard search.count <= Self.searchLimit else {
        return Self.text(.badRequest, "a search is at most \(Self.searchLimit) characters")
      }
      return Self.json(api.steps(from: from, count: count, kind: kind, search: search))
    default:
      let prefix = "/api/step/"
      if request.path.hasPrefix(prefix), let index = Int(request.path.dropFirst(prefix.count)) {
        do {
          guard let data = try await api.servedStep(index) else {
            return Self.text(.notFound, "no step \(index)")
          }
          return Self.json(data)
        } catch {
          return Self.text(
            .unprocessableContent,
            "step \(index) cannot be read from the recording: \(error)"
          )
        }
      }
      return Self.text(.notFound, "not found")
    }
  }

  /// The token in the request's cookie, if any.
  private func cookie(of request: HTTPRequest, port: UInt16) -> String? {
    guard let header = request.headers[.cookie] else { return nil }
    for pair in header.split(separator: ";") {
      let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0] == Self.cookieName(port: port) { return String(parts[1]) }
    }
    return nil
  }

  private static func asset(_ text: String, type: String) -> HTTPResponse {
    HTTPResponse(statusCode: .ok, headers: [.contentType: type], body: Data(text.utf8))
  }

  /// `body` as a file to save, named `name`.
  private static func attachment(_ body: Data, type: String, named name: String) -> HTTPResponse {
    HTTPResponse(
      statusCode: .ok,
      headers: [
        .contentType: type,
        HTTPHeader("Content-Disposition"): "attachment; filename=\"\(name)\"",
      ],
      body: body
    )
  }

  private static func json(_ data: Data) -> HTTPResponse {
    HTTPResponse(
      statusCode: .ok,
      headers: [.contentType: "application/json; charset=utf-8"],
      body: data
    )
  }

  private static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
    HTTPResponse(
      statusCode: status,
      headers: [.contentType: "text/plain; charset=utf-8"],
      body: Data((text + "\n").utf8)
    )
  }
}
