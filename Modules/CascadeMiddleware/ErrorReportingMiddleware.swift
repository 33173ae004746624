public import CascadeStore
public import CascadeStreams

/// A middleware that routes failures, with the state at that moment, to a handler: inputs the
/// app marks as errors, and failures of commands and effects the app forwards to it.
///
/// **Inputs marked as errors.** `error` tells which inputs carry a failure (a response with an
/// error status, a `.failed(error)` action). For each, the handler receives an
/// ``ErrorReport`` with the error, the input, the state after it, and a dispatcher to react — the
/// seed's example: spot an HTTP 401 and fire a login event.
///
/// ```swift
/// let unauthorized = ErrorReportingMiddleware<Action, AppState>(
///   error: { action in
///     if case .response(let status, _) = action, status == 401 { return HTTPError(status) }
///     return nil
///   },
///   handler: { report in
///     report.dispatcher.dispatch(.showLogin)   // queued behind the 401
///   }
/// )
/// ```
///
/// **Failures of commands and effects.** A store reports a command that threw to its
/// `diagnostics` hook; forward those with ``reportFailure(_:source:state:)``, and the handler receives
/// them with the last state this middleware saw:
///
/// ```swift
/// let store = Store(
///   initialState: AppState(),
///   middlewares: [errors],
///   diagnostics: { diagnostic in
///     if case .effectFailed(let effect, let error) = diagnostic {
///       errors.reportFailure(error, source: effect)
///     }
///   },
///   reducer: reduce
/// )
/// ```
///
/// To know that state, the middleware keeps the state after each input (one copy, under a lock);
/// attach one error-reporting middleware per architecture whose failures it reports.
///
/// The handler runs on the thread processing the input (or reporting the failure), never under a
/// lock: keep it quick.
public struct ErrorReportingMiddleware<Input: Sendable, State: Sendable>: Middleware {
  private let error: @Sendable (Input) -> (any Error)?
  private let handler: @Sendable (ErrorReport<Input, State>) -> Void
  private let latest = LockedValue<Latest?>(nil)

  private struct Latest {
    var state: State
    var dispatcher: MiddlewareDispatcher<Input>
  }

  /// Creates an error-reporting middleware.
  ///
  /// - Parameters:
  ///   - error: The error an input carries, or `nil` for an input that is not a failure. By
  ///     default no input is.
  ///   - handler: Receives each failure, with the state at that moment.
  public init(
    error: @escaping @Sendable (Input) -> (any Error)? = { _ in nil },
    handler: @escaping @Sendable (ErrorReport<Input, State>) -> Void
  ) {
    self.error = error
    self.handler = handler
  }

  /// `false`: error reporting only observes.
  public var interceptsInputs: Bool { false }

  /// Remembers the state, and reports the input if it carries an error.
  public func process(_ record: MiddlewareRecord<Input, State>) {
    latest.withLock { $0 = Latest(state: record.state, dispatcher: record.dispatcher) }
    guard let failure = error(record.input) else { return }
    handler(
      ErrorReport(
        error: failure,
        source: .input(record.input),
        state: record.state,
        sequence: record.sequence,
        time: record.time,
        dispatcher: record.dispatcher
      )
    )
  }

  /// Reports a failure that happened outside an input — a command or an effect that threw —
  /// with the last state this middleware saw.
  ///
  /// - Parameters:
  ///   - error: The failure.
  ///   - source: What failed, such as the command's name.
  ///   - state: The state to report; by default the last one this middleware saw. A failure
  ///     before any input was processed, with no state given, is not reported.
  /// - Returns: Whether the handler received the failure.
  @discardableResult
  public func reportFailure(_ error: any Error, source: String, state: State? = nil) -> Bool {
    let latest = self.latest.withLock { $0 }
    guard let state = state ?? latest?.state else { return false }
    handler(
      ErrorReport(
        error: error,
        source: .failure(source),
        state: state,
        sequence: nil,
        time: nil,
        dispatcher: latest?.dispatcher ?? .none
      )
    )
    return true
  }
}

/// A failure an ``ErrorReportingMiddleware`` routes to its handler.
public struct ErrorReport<Input: Sendable, State: Sendable>: Sendable {
  /// Where a failure came from.
  public enum Source: Sendable {
    /// An input the app marks as an error.
    case input(Input)
    /// A command or an effect, by name.
    case failure(String)
  }

  /// The failure.
  public var error: any Error
  /// Where it came from.
  public var source: Source
  /// The state at that moment: after the input, or the last one seen for other failures.
  public var state: State
  /// The input's sequence number, for an input.
  public var sequence: UInt64?
  /// When the input was processed, for an input.
  public var time: SchedulerInstant?
  /// Sends inputs to the architecture, to react to the failure (queued).
  public var dispatcher: MiddlewareDispatcher<Input>

  /// Creates a report.
  public init(
    error: any Error,
    source: Source,
    state: State,
    sequence: UInt64? = nil,
    time: SchedulerInstant? = nil,
    dispatcher: MiddlewareDispatcher<Input> = .none
  ) {
    self.error = error
    self.source = source
    self.state = state
    self.sequence = sequence
    self.time = time
    self.dispatcher = dispatcher
  }
}
