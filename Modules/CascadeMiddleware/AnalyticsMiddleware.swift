public import CascadeStore
import CascadeStreams
public import Foundation
import Logging

/// A middleware that turns chosen inputs into named analytics events and hands them to a sink.
///
/// `events` decides which inputs matter and what they say: it returns an ``AnalyticsEvent``
/// (a name and properties) for an input, with the state it produced, or `nil` to ignore it.
///
/// ```swift
/// let analytics = AnalyticsMiddleware<Action, AppState>(sink: sink) { action, state in
///   switch action {
///   case .purchase(let item):
///     AnalyticsEvent("purchase", ["item": .string(item.id), "cartSize": .int(state.cart.count)])
///   case .signIn:
///     AnalyticsEvent("sign_in")
///   default:
///     nil
///   }
/// }
/// ```
///
/// The sink is pluggable (``AnalyticsSink``): ``FileAnalyticsSink`` appends JSON Lines to a
/// file, ``InMemoryAnalyticsSink`` collects events for tests, and an app's own sink forwards them
/// to its analytics service. The sink is called on the thread processing the input: a sink
/// that talks to the network hands the event to a queue or a task of its own.
public struct AnalyticsMiddleware<Input: Sendable, State: Sendable>: Middleware {
  /// Where events go.
  public let sink: any AnalyticsSink
  private let events: @Sendable (Input, State) -> AnalyticsEvent?

  /// Creates an analytics middleware.
  ///
  /// - Parameters:
  ///   - sink: Where events go.
  ///   - events: The event an input (with the state after it) makes, or `nil` for none.
  public init(
    sink: any AnalyticsSink,
    events: @escaping @Sendable (Input, State) -> AnalyticsEvent?
  ) {
    self.sink = sink
    self.events = events
  }

  /// `false`: analytics only observe.
  public var interceptsInputs: Bool { false }

  /// Tracks the input's event, if it makes one.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    guard let event = events(record.input, record.state) else { return }
    sink.track(event)
  }
}

/// A named analytics event with properties.
public struct AnalyticsEvent: Sendable, Hashable, Codable {
  /// The event's name, such as `purchase`.
  public var name: String
  /// The event's properties.
  public var properties: [String: AnalyticsValue]

  /// Creates an event.
  public init(_ name: String, _ properties: [String: AnalyticsValue] = [:]) {
    self.name = name
    self.properties = properties
  }
}

/// The value of an analytics property.
///
/// Literals make values directly: `["count": 3, "plan": "pro", "trial": true]`.
public enum AnalyticsValue: Sendable, Hashable, Codable, ExpressibleByStringLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
  /// Text.
  case string(String)
  /// A whole number.
  case int(Int)
  /// A number with a fraction.
  case double(Double)
  /// A flag.
  case bool(Bool)

  /// A string value.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An integer value.
  public init(integerLiteral value: Int) { self = .int(value) }
  /// A floating-point value.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// A Boolean value.
  public init(booleanLiteral value: Bool) { self = .bool(value) }

  /// Decodes a bare JSON string, number or Boolean.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else {
      self = .string(try container.decode(String.self))
    }
  }

  /// Encodes the bare value: `"pro"`, `3`, `2.5`, `true`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    }
  }
}

/// Where an ``AnalyticsMiddleware`` delivers events.
///
/// `track` is called on the thread processing the input, possibly from several architectures at
/// once: keep it quick and thread-safe.
public protocol AnalyticsSink: Sendable {
  /// Delivers one event.
  func track(_ event: AnalyticsEvent)
}

/// An analytics sink collecting events in memory, for tests.
///
/// ```swift
/// let sink = InMemoryAnalyticsSink()
/// // … attach AnalyticsMiddleware(sink: sink) { … } and send inputs …
/// #expect(sink.events.map(\.name) == ["sign_in", "purchase"])
/// ```
public final class InMemoryAnalyticsSink: AnalyticsSink {
  private let storage = LockedValue<[AnalyticsEvent]>([])

  /// Creates an empty sink.
  public init() {}

  /// Every event tracked, in order.
  public var events: [AnalyticsEvent] { storage.withLock { $0 } }

  /// Appends `event`.
  public func track(_ event: AnalyticsEvent) {
    storage.withLock { $0.append(event) }
  }
}

/// An analytics sink appending each event as one JSON line to a file.
///
/// ```
/// {"name":"purchase","properties":{"cartSize":2,"item":"book"}}
/// ```
///
/// An event that cannot be written is lost and reported to `onError` (by default logged at
/// `.error` on a logger labelled `cascade.analytics`); the next one is tried again.
public final class FileAnalyticsSink: AnalyticsSink {
  /// The file written.
  public var url: URL { file.url }
  private let file: JSONLinesFile
  private let encoder = makeLineEncoder()
  private let onError: @Sendable (any Error) -> Void

  /// Creates a sink writing to the file at `url`, created on the first event.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - append: Whether to keep what the file already holds; by default it is replaced.
  ///   - onError: Receives each failure to write an event; by default it is logged.
  public init(
    url: URL,
    append: Bool = false,
    onError: (@Sendable (any Error) -> Void)? = nil
  ) {
    file = JSONLinesFile(url: url, append: append)
    self.onError =
      onError ?? { error in
        Logger(label: "cascade.analytics").error("analytics event not written: \(error)")
      }
  }

  /// Appends `event` to the file.
  public func track(_ event: AnalyticsEvent) {
    do {
      try file.write(encoder.encode(event))
    } catch {
      onError(error)
    }
  }

  /// Reads back the events in a file a sink wrote.
  ///
  /// - Throws: If the file cannot be read, or a line is not an event.
  public static func events(in url: URL) throws -> [AnalyticsEvent] {
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    let decoder = JSONDecoder()
    return try text.split(separator: "\n").map {
      try decoder.decode(AnalyticsEvent.self, from: Data($0.utf8))
    }
  }
}
