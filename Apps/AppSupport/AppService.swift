public import CascadeStreams

/// The architecture an app service is built on.
///
/// Every sample app (RPG, Movies, Todo) is implemented once per case, behind one
/// ``AppService`` interface, so fronts and tests can pick one by name
/// (`--architecture store|reactor|feedback`).
public enum Architecture: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
  /// A `CascadeStore.Store`: states that react to events, commands for async work.
  case store
  /// A `CascadeReactor.Reactor`: actions, mutations, async mutations.
  case reactor
  /// A `CascadeFeedback.FeedbackLoop`: events, a reducer and feedback loops.
  case feedback

  /// The name used on the command line.
  public var description: String { rawValue }
}

/// One app built on one architecture, as its front and its tests see it.
///
/// A service takes *intents* (what the user asked for) and exposes its state. Intents are
/// processed in the order they were sent; asynchronous work they start (saving, loading,
/// requests, database writes) finishes later and shows in the state.
///
/// ```swift
/// let game: any AppService<GameIntent, GameState> = makeGame(.reactor)
/// game.send(.attack)
/// let state = try await game.waitForState { !$0.isBusy }
/// ```
public protocol AppService<Intent, State>: AnyObject, Sendable {
  /// What the user may ask for.
  associatedtype Intent: Sendable
  /// The app's state; equal states from different architectures mean identical behaviour.
  associatedtype State: Sendable & Equatable

  /// The architecture this service is built on.
  var architecture: Architecture { get }

  /// The state now.
  var currentState: State { get }

  /// The state: the current one on subscription, then every change, in order, delivered
  /// synchronously on the thread that produced it.
  var states: Observable<State, Never> { get }

  /// Sends an intent; intents are processed in the order they were sent.
  ///
  /// It may return before the intent is processed: when another thread is processing the
  /// service's inputs (an effect's outcome), that thread processes it too. ``finish()`` waits
  /// until it was.
  func send(_ intent: Intent)

  /// Waits until every intent sent so far has been processed, its states delivered, and the
  /// work it started (a request, a file or database write) has ended and been processed: the
  /// architecture's own `finish()`.
  ///
  /// A front that prints what an intent led to waits for this rather than for the first state
  /// that looks done, which may be one partway through the intent. Work that never ends keeps
  /// it waiting.
  func finish() async
}

/// The service did not reach the awaited state in time.
public struct AppServiceTimeout: Error, CustomStringConvertible {
  /// How long the wait lasted.
  public var timeout: Duration
  /// The last state seen, described.
  public var lastState: String

  /// What the wait was for and the last state seen.
  public var description: String {
    "timed out after \(timeout) waiting for a state; last state: \(lastState)"
  }
}

extension AppService {
  /// Waits until the state satisfies `predicate` and returns that state.
  ///
  /// Checks the current state first, then every new state: the wait ends on the state itself,
  /// never by polling, so `timeout` only bounds how long a wait for a state that never comes
  /// lasts (60 seconds by default, generous so that a loaded machine never times out work that
  /// is merely late).
  ///
  /// - Throws: ``AppServiceTimeout`` when no state satisfies `predicate` within `timeout`.
  public func waitForState(
    timeout: Duration = .seconds(60),
    where predicate: @escaping @Sendable (State) -> Bool
  ) async throws -> State {
    let states = self.states
    return try await withThrowingTaskGroup(of: State?.self) { group in
      group.addTask {
        for await state in states.values where predicate(state) { return state }
        return nil
      }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      let first = try await group.next() ?? nil
      group.cancelAll()
      guard let state = first else {
        throw AppServiceTimeout(timeout: timeout, lastState: String(describing: currentState))
      }
      return state
    }
  }
}

extension AppService {
  /// Waits until the service has finished everything sent so far (``finish()``), at most
  /// `timeout`.
  ///
  /// - Throws: ``AppServiceTimeout`` when it has not finished within `timeout`.
  public func finish(timeout: Duration) async throws {
    // `finish()` does not end when cancelled: the first of it and the timer resumes the wait,
    // and a finish that outlives the timer ends on its own, unawaited.
    let waiter = LockedValue<CheckedContinuation<Bool, Never>?>(nil)
    let finished = await withCheckedContinuation {
      (continuation: CheckedContinuation<Bool, Never>) in
      waiter.withLock { $0 = continuation }
      let resume: @Sendable (Bool) -> Void = { finished in
        waiter.withLock { pending in
          defer { pending = nil }
          return pending
        }?.resume(returning: finished)
      }
      let timer = Task {
        try? await Task.sleep(for: timeout)
        resume(false)
      }
      Task {
        await self.finish()
        resume(true)
        timer.cancel()
      }
    }
    guard finished else {
      throw AppServiceTimeout(timeout: timeout, lastState: String(describing: currentState))
    }
  }
}

/// Any app service with the given intents and state, as one concrete type: for code generic
/// over a concrete `AppService` (such as a test harness) that receives the `any AppService`
/// an app's factory returns.
public final class AnyAppService<Intent: Sendable, State: Sendable & Equatable>: AppService {
  /// The service wrapped.
  public let base: any AppService<Intent, State>

  /// Wraps `base`.
  public init(_ base: any AppService<Intent, State>) {
    self.base = base
  }

  /// The wrapped service's architecture.
  public var architecture: Architecture { base.architecture }
  /// The wrapped service's state now.
  public var currentState: State { base.currentState }
  /// The wrapped service's states.
  public var states: Observable<State, Never> { base.states }
  /// Sends `intent` to the wrapped service.
  public func send(_ intent: Intent) { base.send(intent) }
  /// Waits until the wrapped service has finished everything sent so far.
  public func finish() async { await base.finish() }
}
