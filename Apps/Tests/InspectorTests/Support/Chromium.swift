import AppTestSupport
import CascadeStreams
import Foundation
import Logging
import WSClient

/// A headless Chromium, driven over the DevTools protocol as a user's browser would be: it loads
/// a page, receives key presses and clicks, and answers what the page shows.
///
/// ```swift
/// let browser = try await Chromium.launch()
/// let page = try await browser.open(url)
/// try await page.press(.arrowRight)
/// let title = try await page.evaluate("document.title") as? String
/// await browser.close()
/// ```
///
/// The executable is `CASCADE_CHROMIUM` if set, else the first of `chromium`,
/// `chromium-browser` and `google-chrome` found in `/usr/bin` (Debian's `chromium` package, which
/// `.ci/run` installs).
final class Chromium: Sendable {
  private let child: ServingChild
  private let profile: TemporaryDirectory
  private let devTools: DevToolsConnection

  /// The browser to run, if one is installed.
  static let executable: URL? = {
    if let path = ProcessInfo.processInfo.environment["CASCADE_CHROMIUM"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return ["chromium", "chromium-browser", "google-chrome"]
      .map { URL(fileURLWithPath: "/usr/bin/\($0)") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  /// Whether the browser tests run: a browser is installed, or this is CI (where its absence
  /// fails them, instead of skipping them silently).
  static let isAvailable =
    executable != nil || ProcessInfo.processInfo.environment["CI"] != nil

  private init(child: ServingChild, profile: TemporaryDirectory, devTools: DevToolsConnection) {
    self.child = child
    self.profile = profile
    self.devTools = devTools
  }

  /// Starts a headless browser with a profile of its own, 1280 × 800 pixels, and connects to it.
  static func launch() async throws -> Chromium {
    guard let executable else {
      throw DevToolsError("no browser: install Debian's chromium, or set CASCADE_CHROMIUM")
    }
    let profile = try TemporaryDirectory()
    let prefix = "DevTools listening on "
    let child = try ServingChild(
      executable,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--no-first-run", "--no-default-browser-check", "--disable-extensions",
        "--disable-background-networking", "--disable-component-update", "--mute-audio",
        "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=1280,800",
        "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
        // The WebSocket client sends the origin `ws://127.0.0.1`: the only one allowed.
        "--remote-allow-origins=ws://127.0.0.1",
        "--user-data-dir=\(profile.url.path)", "about:blank",
      ],
      announcesOn: .error,
      isAnnouncement: { $0.hasPrefix(prefix) }
    )
    guard let line = await child.firstLine(),
      let url = URL(string: String(line.dropFirst(prefix.count)))
    else {
      let run = await child.stop()
      profile.remove()
      throw DevToolsError("the browser announced no DevTools endpoint: \(run.summary)")
    }
    do {
      let devTools = try await DevToolsConnection.connect(to: url)
      return Chromium(child: child, profile: profile, devTools: devTools)
    } catch {
      await child.stop()
      profile.remove()
      throw error
    }
  }

  /// Opens `url` in a new tab of 1280 × 800 pixels and waits for its load event.
  func open(_ url: URL) async throws -> BrowserPage {
    let target = try await devTools.call("Target.createTarget", ["url": "about:blank"])
    let targetID = try DevToolsError.require(target["targetId"] as? String, "no target id")
    let attached = try await devTools.call(
      "Target.attachToTarget",
      ["targetId": targetID, "flatten": true]
    )
    let session = try DevToolsError.require(attached["sessionId"] as? String, "no session id")
    let page = BrowserPage(devTools: devTools, session: session)
    _ = try await page.call(
      "Emulation.setDeviceMetricsOverride",
      ["width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false]
    )
    _ = try await page.call("Page.enable")
    _ = try await page.call("Runtime.enable")
    let loaded = devTools.expect("Page.loadEventFired", session: session)
    let navigated = try await page.call("Page.navigate", ["url": url.absoluteString])
    if let failure = navigated["errorText"] as? String {
      throw DevToolsError("\(url) did not load: \(failure)")
    }
    try await devTools.wait(for: loaded, "\(url)'s load event")
    return page
  }

  /// Ends the browser and removes its profile.
  func close() async {
    devTools.close()
    await child.stop()
    profile.remove()
  }
}

/// A failure of the browser or of the page: what went wrong, in one line.
struct DevToolsError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }

  static func require<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T {
    guard let value else { throw DevToolsError(what()) }
    return value
  }
}

/// A key the tests press, with the codes the DevTools protocol needs for it.
enum Key: String, Sendable {
  case arrowLeft = "ArrowLeft"
  case arrowRight = "ArrowRight"
  case home = "Home"
  case end = "End"

  var virtualKeyCode: Int {
    switch self {
    case .arrowLeft: 37
    case .arrowRight: 39
    case .home: 36
    case .end: 35
    }
  }
}

/// One tab of the browser.
struct BrowserPage: Sendable {
  fileprivate let devTools: DevToolsConnection
  fileprivate let session: String

  fileprivate func call(
    _ method: String,
    _ parameters: [String: Any] = [:]
  ) async throws
    -> [String: Any]
  {
    try await devTools.call(method, parameters, session: session)
  }

  /// Evaluates `expression` in the page, awaiting it if it is a promise, and returns its value
  /// as JSON makes it (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`), or `nil` for
  /// `undefined`.
  ///
  /// - Throws: ``DevToolsError`` with the page's exception when the expression throws.
  func evaluate(_ expression: String) async throws -> Any? {
    let answer = try await call(
      "Runtime.evaluate",
      ["expression": expression, "awaitPromise": true, "returnByValue": true, "userGesture": true]
    )
    if let exception = answer["exceptionDetails"] as? [String: Any] {
      let detail = (exception["exception"] as? [String: Any])?["description"] as? String
      throw DevToolsError("the page threw: \(detail ?? exception["text"] as? String ?? "?")")
    }
    return (answer["result"] as? [String: Any])?["value"]
  }

  /// Waits until `condition` (a JavaScript expression) is truthy in the page, and returns its
  /// value.
  ///
  /// It is checked again each time the document changes. The wait is on the page's own changes (a
  /// `MutationObserver`), never on a clock.
  func waitFor(_ condition: String) async throws -> Any? {
    try await evaluate(
      """
      new Promise((resolve, reject) => {
        const check = () => {
          try {
            const value = (\(condition));
            if (value) { observer.disconnect(); resolve(value); }
          } catch (error) { observer.disconnect(); reject(error); }
        };
        const observer = new MutationObserver(check);
        observer.observe(document, {
          subtree: true, childList: true, characterData: true, attributes: true
        });
        check();
      })
      """
    )
  }

  /// Presses and releases `key`, as a user at the keyboard.
  func press(_ key: Key) async throws {
    for type in ["rawKeyDown", "keyUp"] {
      _ = try await call(
        "Input.dispatchKeyEvent",
        [
          "type": type, "key": key.rawValue, "code": key.rawValue,
          "windowsVirtualKeyCode": key.virtualKeyCode, "nativeVirtualKeyCode": key.virtualKeyCode,
        ]
      )
    }
  }

  /// Clicks the middle of the first element `selector` finds, as a user with a mouse.
  func click(_ selector: String) async throws {
    let box = try DevToolsError.require(
      try await evaluate(
        """
        (() => {
          const element = document.querySelector(\(Self.literal(selector)));
          if (!element) return null;
          element.scrollIntoView({ block: "nearest" });
          const box = element.getBoundingClientRect();
          return [box.left + box.width / 2, box.top + box.height / 2];
        })()
        """
      ) as? [Double],
      "nothing to click at \(selector)"
    )
    for type in ["mousePressed", "mouseReleased"] {
      _ = try await call(
        "Input.dispatchMouseEvent",
        ["type": type, "x": box[0], "y": box[1], "button": "left", "clickCount": 1]
      )
    }
  }

  /// The page as a PNG image.
  func screenshot() async throws -> Data {
    let answer = try await call("Page.captureScreenshot", ["format": "png"])
    let text = try DevToolsError.require(answer["data"] as? String, "no screenshot")
    return try DevToolsError.require(Data(base64Encoded: text), "a screenshot not in base 64")
  }

  /// `text` as a JavaScript string literal.
  static func literal(_ text: String) -> String {
    let data = try? JSONSerialization.data(withJSONObject: [text])
    return String(decoding: data ?? Data("[\"\"]".utf8), as: UTF8.self).dropFirst().dropLast()
      .description
  }
}

/// The browser's DevTools WebSocket: commands with ids, answered in any order, and events.
final class DevToolsConnection: Sendable {
  private struct Shared {
    var send: (@Sendable (String) async throws -> Void)?
    var nextID = 1
    var replies: [Int: CheckedContinuation<Data, any Error>] = [:]
    var expected: [(method: String, session: String?, arrived: AppTestSupport.Signal)] = []
    var ended: String?
  }

  private let shared = LockedValue(Shared())
  private let reader = LockedValue<Task<Void, Never>?>(nil)

  private init() {}

  /// Connects to the browser's endpoint `url` (`ws://127.0.0.1:PORT/devtools/browser/ID`).
  static func connect(to url: URL) async throws -> DevToolsConnection {
    let connection = DevToolsConnection()
    let opened = LockedValue<CheckedContinuation<Void, any Error>?>(nil)
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      opened.withLock { $0 = continuation }
      let task = Task {
        var logger = Logger(label: "devtools")
        logger.logLevel = .critical
        var reason = "the browser closed the connection"
        do {
          try await WebSocketClient.connect(
            url: url.absoluteString,
            configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 26),
            logger: logger
          ) { inbound, outbound, _ in
            connection.shared.withLock {
              $0.send = { text in try await outbound.write(.text(text)) }
            }
            opened.withLock { continuation in
              continuation?.resume()
              continuation = nil
            }
            for try await message in inbound.messages(maxSize: 1 << 28) {
              if case .text(let text) = message { connection.receive(Data(text.utf8)) }
            }
          }
        } catch {
          reason = "\(error)"
        }
        opened.withLock { continuation in
          continuation?.resume(throwing: DevToolsError("DevTools: \(reason)"))
          continuation = nil
        }
        connection.end(reason)
      }
      connection.reader.withLock { $0 = task }
    }
    return connection
  }

  /// Sends `method` with `parameters` (to the page `session`, or to the browser) and returns
  /// its result; throws the protocol's error, or when the calling task is cancelled first.
  func call(
    _ method: String,
    _ parameters: [String: Any] = [:],
    session: String? = nil
  ) async throws -> [String: Any] {
    let (id, send) = try shared.withLock { shared throws(DevToolsError) in
      guard let send = shared.send, shared.ended == nil else {
        throw DevToolsError("DevTools: \(shared.ended ?? "not connected")")
      }
      defer { shared.nextID += 1 }
      return (shared.nextID, send)
    }
    var message: [String: Any] = ["id": id, "method": method, "params": parameters]
    if let session { message["sessionId"] = session }
    let text = String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self)
    // No clock here: the suite's time limit is the safety net, and its cancellation fails the
    // call (a page that never shows what a test waits for fails it instead of hanging the run).
    let data = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        shared.withLock { $0.replies[id] = continuation }
        // Cancelled before the reply was registered: the handler found nothing to fail.
        if Task.isCancelled { self.fail(id, CancellationError()) }
        Task {
          do { try await send(text) } catch { self.fail(id, error) }
        }
      }
    } onCancel: {
      self.fail(id, DevToolsError("\(method): cancelled before the browser answered"))
    }
    let answer = try DevToolsError.require(
      try JSONSerialization.jsonObject(with: data) as? [String: Any],
      "\(method): an answer that is not an object"
    )
    if let error = answer["error"] as? [String: Any] {
      throw DevToolsError("\(method): \(error["message"] as? String ?? "\(error)")")
    }
    return answer["result"] as? [String: Any] ?? [:]
  }

  /// A signal that fires when the event `method` next arrives (from the page `session`).
  ///
  /// It also fires when the connection ends. Made before the command that causes the event, so that the event cannot
  /// come first.
  func expect(_ method: String, session: String?) -> AppTestSupport.Signal {
    let arrived = AppTestSupport.Signal()
    let ended = shared.withLock { shared in
      shared.expected.append((method, session, arrived))
      return shared.ended != nil
    }
    if ended { arrived.fire() }
    return arrived
  }

  /// Waits for an event ``expect(_:session:)`` made a signal for; throws if the connection
  /// ended instead, or nothing came within two minutes (a safety net).
  func wait(for event: AppTestSupport.Signal, _ what: String) async throws {
    guard await event.wait(timeout: .seconds(120)) else {
      throw DevToolsError("no \(what) within 120 s")
    }
    if let ended = shared.withLock({ $0.ended }) {
      throw DevToolsError("DevTools ended before \(what): \(ended)")
    }
  }

  /// Closes the connection.
  func close() {
    reader.withLock { $0 }?.cancel()
    end("closed")
  }

  private func receive(_ data: Data) {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return
    }
    if let id = object["id"] as? Int {
      let reply = shared.withLock { $0.replies.removeValue(forKey: id) }
      reply?.resume(returning: data)
    } else if let method = object["method"] as? String {
      let session = object["sessionId"] as? String
      let arrived = shared.withLock { shared in
        let matching = shared.expected.filter { $0.method == method && $0.session == session }
        shared.expected.removeAll { $0.method == method && $0.session == session }
        return matching.map(\.arrived)
      }
      for signal in arrived { signal.fire() }
    }
  }

  private func fail(_ id: Int, _ error: any Error) {
    let reply = shared.withLock { $0.replies.removeValue(forKey: id) }
    reply?.resume(throwing: error)
  }

  private func end(_ reason: String) {
    let (replies, expected) = shared.withLock { shared in
      if shared.ended == nil { shared.ended = reason }
      defer {
        shared.replies = [:]
        shared.expected = []
      }
      return (Array(shared.replies.values), shared.expected.map(\.arrived))
    }
    for reply in replies { reply.resume(throwing: DevToolsError("DevTools: \(reason)")) }
    for signal in expected { signal.fire() }
  }
}
