public import CascadeStore
public import Foundation

/// One app on one architecture, as its services and sessions are built: the service, made from
/// the app's environment and the middlewares a session puts on its container, and how the
/// container's inputs are recorded.
///
/// ```swift
/// static var reactor: ArchitectureBuild<GameFile, ReactorSession<GameApp>, ReactorGame> {
///   ArchitectureBuild(isEffectOutcome: { _, mutation in ... }) { file, middlewares in
///     ReactorGame(file: file, middlewares: middlewares)
///   }
/// }
/// ```
public struct ArchitectureBuild<
  Environment: Sendable,
  Schema: SessionSchema,
  Service: ArchitectureService
>: Sendable {
  /// The container's inputs.
  public typealias Input = Service.Container.Input
  /// The middlewares a session puts on the container: a live inspector's, then a recorder.
  public typealias Middlewares = [any Middleware<Input, Service.Container.State>]

  /// Makes the service.
  let make: @Sendable (Environment, Middlewares) -> Service
  /// The recorded form of an input, or `nil` for an input that cannot be recorded.
  let encode: @Sendable (Input) -> Schema.Input?
  /// The input a recorded one stands for.
  let decode: @Sendable (Schema.Input) -> Input
  /// Whether an input (with a reactor's mutation) is an effect's outcome.
  let isEffectOutcome: @Sendable (Input, (any Sendable)?) -> Bool
  /// Makes the service from the environment, its container starting from a state, with no
  /// middleware; `nil` if it cannot (``restoring(_:)``).
  private(set) var restore: (@Sendable (Environment, Service.Container.State) -> Service)?

  /// The build of a service whose container's inputs are recorded as they are.
  ///
  /// - Parameters:
  ///   - isEffectOutcome: Whether an input (with a reactor's mutation) is an effect's outcome.
  ///   - make: Makes the service from the environment, with middlewares on its container.
  public init(
    isEffectOutcome: @escaping @Sendable (Input, (any Sendable)?) -> Bool,
    make: @escaping @Sendable (Environment, Middlewares) -> Service
  ) where Schema.Input == Input {
    self.init(encode: { $0 }, decode: { $0 }, isEffectOutcome: isEffectOutcome, make: make)
  }

  /// The build of a service whose container's inputs are recorded as `encode` makes them (a
  /// `Core`'s `any CoreEvent`, which is not `Codable`) and replayed as `decode` makes them again.
  ///
  /// - Parameters:
  ///   - encode: The recorded form of an input, or `nil` for an input that cannot be recorded.
  ///   - decode: The input a recorded one stands for.
  ///   - isEffectOutcome: Whether an input (with a reactor's mutation) is an effect's outcome.
  ///   - make: Makes the service from the environment, with middlewares on its container.
  public init(
    encode: @escaping @Sendable (Input) -> Schema.Input?,
    decode: @escaping @Sendable (Schema.Input) -> Input,
    isEffectOutcome: @escaping @Sendable (Input, (any Sendable)?) -> Bool,
    make: @escaping @Sendable (Environment, Middlewares) -> Service
  ) {
    self.make = make
    self.encode = encode
    self.decode = decode
    self.isEffectOutcome = isEffectOutcome
  }

  /// This build, which can also make the service with its container starting from a state: a
  /// live inspector's "replay to here" then starts from the state after the steps it let go,
  /// and keeps the inputs of the last steps only (`LiveInspector.replays(_:intoFresh:restoring:)`).
  ///
  /// - Parameter restore: Makes the service from the environment, its container starting from
  ///   the state given, with no middleware.
  /// - Returns: This build, with `restore`.
  public func restoring(
    _ restore: @escaping @Sendable (Environment, Service.Container.State) -> Service
  ) -> ArchitectureBuild {
    var build = self
    build.restore = restore
    return build
  }
}

/// What watches a session's container live, besides its recorder: the live inspector, a flight
/// recorder (``FlightObserver``).
public protocol SessionObserver: Sendable {
  /// The middleware that watches the inputs of a `Container` (each made `Encodable` by
  /// `encode`, and made again from that form by `remake`), which can replay them into a fresh
  /// container made by `fresh`, or by `restore` from a state when it is given.
  func watch<Container: ArchitectureContainer>(
    _ container: Container.Type,
    encoding encode: @escaping @Sendable (Container.Input) -> (any Encodable & Sendable)?,
    remaking remake: @escaping @Sendable (any Encodable & Sendable) -> Container.Input?,
    isEffectOutcome: @escaping @Sendable (Container.Input, (any Sendable)?) -> Bool,
    fresh: @escaping @Sendable () -> Container,
    restoring restore: (@Sendable (Container.State) -> Container)?
  ) -> any Middleware<Container.Input, Container.State> where Container.State: Encodable
}

/// An app as its fronts' services and sessions are built, on each architecture.
///
/// One ``ArchitectureBuild`` per architecture, from which ``service(_:_:)``,
/// ``session(_:_:offline:start:command:recordingTo:observer:)`` and
/// ``replay(_:contentsOf:command:offline:)`` build the service or session on any of them: the
/// one switch over the architectures that every app's factories share.
public protocol SessionBlueprint: SessionApp {
  /// The app's state.
  associatedtype State: Sendable & Equatable
  /// What a service is made from: a save file, a page source, a database.
  associatedtype Environment: Sendable
  /// The service on a store.
  associatedtype StoreService: ArchitectureService
  where
    StoreService.Intent == Intent,
    StoreService.State == State,
    StoreService.Container.State: Encodable
  /// The service on a reactor.
  associatedtype ReactorService: ArchitectureService
  where
    ReactorService.Intent == Intent,
    ReactorService.State == State,
    ReactorService.Container.State: Encodable
  /// The service on a feedback loop.
  associatedtype FeedbackService: ArchitectureService
  where
    FeedbackService.Intent == Intent,
    FeedbackService.State == State,
    FeedbackService.Container.State: Encodable

  /// The app on a store.
  static var store: ArchitectureBuild<Environment, StoreSession<Self>, StoreService> { get }
  /// The app on a reactor.
  static var reactor: ArchitectureBuild<Environment, ReactorSession<Self>, ReactorService> { get }
  /// The app on a feedback loop.
  static var feedback: ArchitectureBuild<Environment, FeedbackSession<Self>, FeedbackService> {
    get
  }
}

extension SessionBlueprint {
  /// The service on `architecture`, made from `environment`, with no middleware of a session's.
  public static func service(
    _ architecture: Architecture,
    _ environment: Environment
  ) -> any AppService<Intent, State> {
    switch architecture {
    case .store: store.make(environment, [])
    case .reactor: reactor.make(environment, [])
    case .feedback: feedback.make(environment, [])
    }
  }

  /// A front's session with the service on `architecture`, made from `environment`: live,
  /// recorded to `recording` if given (its header's start is `start`), and watched by
  /// `observers`, in order, whose fresh containers are made from `offline(start)`.
  public static func session(
    _ architecture: Architecture,
    _ environment: Environment,
    offline: @escaping @Sendable (Start) -> Environment,
    start: Start,
    command: String,
    recordingTo recording: URL?,
    observers: [any SessionObserver]
  ) -> AppSession<Intent, State> {
    guard recording != nil || !observers.isEmpty else {
      return .live(service(architecture, environment))
    }
    let fresh = { @Sendable in offline(start) }
    return switch architecture {
    case .store:
      store.session(environment, fresh, start, command, recording, observers)
    case .reactor:
      reactor.session(environment, fresh, start, command, recording, observers)
    case .feedback:
      feedback.session(environment, fresh, start, command, recording, observers)
    }
  }

  /// A session that replays the recording at `url` into a fresh service on `architecture`, made
  /// from `offline(start)`, the recorded start: the recorded states, and no effect.
  ///
  /// - Throws: ``SessionReplayError`` when the recording is missing, unreadable, damaged, or of
  ///   another app, architecture or command.
  public static func replay(
    _ architecture: Architecture,
    contentsOf url: URL,
    command: String,
    offline: (Start) -> Environment
  ) throws(SessionReplayError) -> AppSession<Intent, State> {
    switch architecture {
    case .store: try store.replay(url, command, offline)
    case .reactor: try reactor.replay(url, command, offline)
    case .feedback: try feedback.replay(url, command, offline)
    }
  }
}

extension ArchitectureBuild where Service.Container.State: Encodable {
  /// A front's session with this service (see `SessionBlueprint.session`).
  fileprivate func session(
    _ environment: Environment,
    _ offline: @escaping @Sendable () -> Environment,
    _ start: Schema.Start,
    _ command: String,
    _ recording: URL?,
    _ observers: [any SessionObserver]
  ) -> AppSession<Schema.Intent, Service.State> where Schema.Intent == Service.Intent {
    let recorder = recording.map { SessionRecorder<Schema>(file: $0) }
    let make = make
    let restore = self.restore.map { restore in
      { @Sendable (state: Service.Container.State) in restore(offline(), state).container }
    }
    let watchers = observers.map { observer in
      observer.watch(
        Service.Container.self,
        encoding: { [encode] in encode($0).map { $0 as any Encodable & Sendable } },
        remaking: { [decode] in ($0 as? Schema.Input).map(decode) },
        isEffectOutcome: isEffectOutcome,
        fresh: { make(offline(), []).container },
        restoring: restore
      )
    }
    let service = make(
      environment,
      watchers + present(recorder?.inputs(of: Service.Container.State.self, encoding: encode))
    )
    guard let recorder else { return .live(service) }
    return .recording(service, to: recorder, command: command, start: start)
  }

  /// A session replaying the recording at `url` (see `SessionBlueprint.replay`).
  fileprivate func replay(
    _ url: URL,
    _ command: String,
    _ offline: (Schema.Start) -> Environment
  ) throws(SessionReplayError) -> AppSession<Schema.Intent, Service.State>
  where Schema.Intent == Service.Intent {
    let recording = try SessionRecording<Schema>(contentsOf: url, command: command)
    let service = make(
      offline(recording.header.start),
      [recording.verifier.middleware(of: Service.Container.State.self)]
    )
    return try .replaying(
      service,
      recording: recording,
      replayer: service.container.replayer(decoding: decode)
    )
  }
}
