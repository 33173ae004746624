public import Foundation

/// What a session recording is of: one app on one architecture, and the types of its records.
///
/// A *session* is one run of an app's front (a command-line command): the intents it sent, what
/// it read from outside the service (a line typed, whether a file exists, a file's bytes), and
/// every input the architecture processed. A recording of it replays into a fresh service built
/// the same way, with no effect and no outside input, and so makes the front print what it
/// printed live.
///
/// There is one schema per app and architecture, so that a recording of one app or architecture
/// does not decode as another's: an architecture's inputs are recorded under the key
/// `<app>.<architecture>` (``SessionRecord``). An app describes itself once, as a
/// ``SessionApp``, and takes its three schemas from it: ``StoreSession``, ``ReactorSession``,
/// ``FeedbackSession``.
public protocol SessionSchema: Sendable {
  /// The app's intents: what the front asks the service for.
  associatedtype Intent: Codable & Sendable & Equatable
  /// The inputs the architecture processes: a store's actions or events, a reactor's actions (its
  /// mutations are recorded with them), a feedback loop's events.
  associatedtype Input: Codable & Sendable
  /// What a replay needs to build the service as the recorded one started: its initial state
  /// when it is not always the same (the Todo list read from the database), else
  /// ``SessionNoStart``.
  associatedtype Start: Codable & Sendable

  /// The app's name, as its command is called: `rpg`, `movies`, `todo`.
  static var app: String { get }
  /// The architecture the service is built on.
  static var architecture: Architecture { get }
}

extension SessionSchema {
  /// The key of an input's record: `<app>.<architecture>`, such as `rpg.store`.
  public static var inputKey: String { "\(app).\(architecture)" }
}

/// An app as its session recordings see it, on every architecture: its name, its intents, what
/// a replay needs to start it, and the inputs each architecture processes.
///
/// ```swift
/// enum MoviesApp: SessionApp {
///   typealias Intent = MoviesIntent
///   typealias Start = SessionNoStart
///   typealias StoreInput = MoviesEvent
///   typealias ReactorInput = MoviesIntent
///   typealias FeedbackInput = MoviesEvent
///   static var name: String { "movies" }
/// }
/// let recorder = SessionRecorder<StoreSession<MoviesApp>>(file: url)
/// ```
public protocol SessionApp: Sendable {
  /// The app's intents: what the front asks the service for.
  associatedtype Intent: Codable & Sendable & Equatable
  /// What a replay needs to build the service as the recorded one started
  /// (``SessionSchema/Start``).
  associatedtype Start: Codable & Sendable
  /// The inputs of the app's store: its actions or events.
  associatedtype StoreInput: Codable & Sendable
  /// The inputs of the app's reactor: its actions (its mutations are recorded with them).
  associatedtype ReactorInput: Codable & Sendable
  /// The inputs of the app's feedback loop: its events.
  associatedtype FeedbackInput: Codable & Sendable

  /// The app's name, as its command is called: `rpg`, `movies`, `todo`.
  static var name: String { get }
}

/// The session schema of `App` on the store.
public enum StoreSession<App: SessionApp>: SessionSchema {
  /// ``SessionApp/Intent``.
  public typealias Intent = App.Intent
  /// ``SessionApp/StoreInput``.
  public typealias Input = App.StoreInput
  /// ``SessionApp/Start``.
  public typealias Start = App.Start
  /// ``SessionApp/name``.
  public static var app: String { App.name }
  /// ``Architecture/store``.
  public static var architecture: Architecture { .store }
}

/// The session schema of `App` on the reactor.
public enum ReactorSession<App: SessionApp>: SessionSchema {
  /// ``SessionApp/Intent``.
  public typealias Intent = App.Intent
  /// ``SessionApp/ReactorInput``.
  public typealias Input = App.ReactorInput
  /// ``SessionApp/Start``.
  public typealias Start = App.Start
  /// ``SessionApp/name``.
  public static var app: String { App.name }
  /// ``Architecture/reactor``.
  public static var architecture: Architecture { .reactor }
}

/// The session schema of `App` on the feedback loop.
public enum FeedbackSession<App: SessionApp>: SessionSchema {
  /// ``SessionApp/Intent``.
  public typealias Intent = App.Intent
  /// ``SessionApp/FeedbackInput``.
  public typealias Input = App.FeedbackInput
  /// ``SessionApp/Start``.
  public typealias Start = App.Start
  /// ``SessionApp/name``.
  public static var app: String { App.name }
  /// ``Architecture/feedback``.
  public static var architecture: Architecture { .feedback }
}

/// The ``SessionSchema/Start`` of a service that always starts in the same state.
public struct SessionNoStart: Codable, Sendable, Equatable {
  /// Creates the value.
  public init() {}
}

/// The first record of a session: which app, architecture and command it is of, and what the
/// service started from.
public struct SessionHeader<Start: Codable & Sendable>: Codable, Sendable {
  /// The app (``SessionSchema/app``).
  public var app: String
  /// The architecture.
  public var architecture: Architecture
  /// The command of the front that ran the session, such as `play`, `list` or `add`.
  public var command: String
  /// What the service started from.
  public var start: Start
  /// The check of ``start``, which a replay verifies; `nil` in a header made without it (one
  /// written by hand), which a replay refuses.
  public var check: StateCheck?

  /// Creates a header, with the check of `start`.
  public init(app: String, architecture: Architecture, command: String, start: Start) {
    self.app = app
    self.architecture = architecture
    self.command = command
    self.start = start
    check = try? StateCheck(of: start)
  }
}

/// Something a front read from outside its service during a session, so that a replay reads it
/// from the recording instead: a line typed, whether a file exists, a file's bytes.
public struct SessionFact: Codable, Sendable, Equatable {
  /// What was read.
  public enum Value: Codable, Sendable, Equatable {
    /// A text (a line typed, a script, a server's address).
    case text(String)
    /// A yes or no (a file exists; standard input is a terminal).
    case flag(Bool)
    /// Bytes (a file read).
    case data(Data)
    /// Nothing: the end of the input, no such file.
    case absent
    /// The read failed; the message says why.
    case failure(String)
  }

  /// What the front asked for, such as `line`, `script` or `saveExists`.
  public var name: String
  /// What it got.
  public var value: Value

  /// Creates a fact.
  public init(name: String, value: Value) {
    self.name = name
    self.value = value
  }
}

/// One record of a session recording: one line of its JSON Lines file, as the `input` of a
/// `CascadeMiddleware.RecordingMiddleware` line.
///
/// Each record is a JSON object with one key:
///
/// ```
/// {"session":{"app":"rpg","architecture":"store","check":"bbd3a4d0e1c2f5a6","command":"play",…}}
/// {"fact":{"name":"line","value":{"text":{"_0":"attack"}}}}
/// {"intent":"attack"}
/// {"rpg.store":{"changed":{"_0":{"happened":{"_0":{"playerHit":{"damage":4}}}}}}}
/// {"check":"9f1e0b6d2c4a8e37"}
/// ```
///
/// An input of another app or architecture (another key) does not decode: a recording is
/// replayed only by the app and architecture that made it.
public enum SessionRecord<Schema: SessionSchema>: Codable, Sendable {
  /// The session began (the first record).
  case start(SessionHeader<Schema.Start>)
  /// The front read something from outside the service.
  case fact(SessionFact)
  /// The front sent an intent to the service.
  case intent(Schema.Intent)
  /// The architecture processed an input.
  case input(Schema.Input)
  /// The state the service was in after the input before it (a reactor's mutation). A replay
  /// checks that it reaches the same (``StateVerifier``).
  case check(StateCheck)

  private typealias Key = RecordKey

  /// Writes the record as an object with one key: `session`, `fact`, `intent`, `check`, or the
  /// schema's ``SessionSchema/inputKey``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch self {
    case .start(let header): try container.encode(header, forKey: Key("session"))
    case .fact(let fact): try container.encode(fact, forKey: Key("fact"))
    case .intent(let intent): try container.encode(intent, forKey: Key("intent"))
    case .input(let input): try container.encode(input, forKey: Key(Schema.inputKey))
    case .check(let check): try container.encode(check, forKey: Key("check"))
    }
  }

  /// Reads a record written by ``encode(to:)`` with the same schema.
  ///
  /// - Throws: `DecodingError.dataCorrupted` for an object without exactly one key, or whose key
  ///   is another app's or architecture's input.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "a session record is an object with one key"
        )
      )
    }
    switch key.stringValue {
    case "session": self = .start(try container.decode(SessionHeader.self, forKey: key))
    case "fact": self = .fact(try container.decode(SessionFact.self, forKey: key))
    case "intent": self = .intent(try container.decode(Schema.Intent.self, forKey: key))
    case Schema.inputKey: self = .input(try container.decode(Schema.Input.self, forKey: key))
    case "check": self = .check(try container.decode(StateCheck.self, forKey: key))
    default:
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath + [key],
          debugDescription:
            "\"\(key.stringValue)\" is not a record of \(Schema.app) on the "
            + "\(Schema.architecture) architecture"
        )
      )
    }
  }
}

/// A record's key (`session`, `fact`, `intent`, `<app>.<architecture>`): any string.
struct RecordKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
