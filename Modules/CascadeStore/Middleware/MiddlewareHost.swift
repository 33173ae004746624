/// The architecture a middleware is attached to, as the middleware may read it from a thread of
/// its own: its state now (``snapshot()``) and a log of the inputs it reduces (``openLog(wake:)``).
///
/// An architecture hands one to each of its middlewares once, when it is made
/// (``Middleware/attached(to:)``). A middleware that does its work on a thread of its own (an
/// inspector encoding states, a recorder writing them) reads there what it needs, when it needs
/// it, instead of keeping the input and the state of every input on the processing thread:
///
/// ```swift
/// final class Autosave<Input: Sendable>: Middleware, Sendable {
///   private let host = LockedValue<MiddlewareHost<Input, Document>?>(nil)
///
///   func attached(to host: MiddlewareHost<Input, Document>) { self.host.withLock { $0 = host } }
///
///   var interceptsInputs: Bool { false }
///
///   /// Every minute, on a timer of its own: the document as it is now.
///   func save() throws {
///     guard let snapshot = host.withLock({ $0 })?.snapshot() else { return }
///     try snapshot.state.write(to: file)
///   }
/// }
/// ```
///
/// It holds the architecture weakly: once the architecture is gone, ``snapshot()`` answers `nil`.
public struct MiddlewareHost<Input: Sendable, State: Sendable>: Sendable {
  private let read: @Sendable () -> MiddlewareSnapshot<State>?
  private let open:
    @Sendable (_ wake: @escaping @Sendable () -> Void) -> MiddlewareLog<Input, State>?
  /// The dispatcher every ``MiddlewareRecord`` of the architecture carries, if the architecture
  /// says so (the engine of Store, Reactor and FeedbackLoop does; a custom architecture's host
  /// has none).
  ///
  /// For a middleware that lifts others onto its inputs (a reactor's, a pullback): it maps this
  /// dispatcher once, as it is attached, instead of each record's (a closure allocated per
  /// input).
  package let dispatcher: MiddlewareDispatcher<Input>?

  /// Creates a host; architectures build these.
  ///
  /// - Parameters:
  ///   - read: Reads the state, the last input's sequence number and whether the architecture
  ///     rests, together, under the architecture's lock.
  ///   - openLog: Opens the architecture's log of inputs (see ``openLog(wake:)``); by default
  ///     the architecture keeps none.
  public init(
    snapshot read: @escaping @Sendable () -> MiddlewareSnapshot<State>?,
    openLog:
      @escaping @Sendable (_ wake: @escaping @Sendable () -> Void) -> MiddlewareLog<
        Input, State
      >? = { _ in nil }
  ) {
    self.init(snapshot: read, openLog: openLog, dispatcher: nil)
  }

  /// Creates a host with the dispatcher its architecture's records carry (``dispatcher``).
  package init(
    snapshot read: @escaping @Sendable () -> MiddlewareSnapshot<State>?,
    openLog:
      @escaping @Sendable (_ wake: @escaping @Sendable () -> Void) -> MiddlewareLog<
        Input, State
      >?,
    dispatcher: MiddlewareDispatcher<Input>?
  ) {
    self.read = read
    self.open = openLog
    self.dispatcher = dispatcher
  }

  /// A host for tests and replays: no snapshot, no log.
  public static var none: MiddlewareHost { MiddlewareHost(snapshot: { nil }) }

  /// The architecture's state now, with the sequence number of the last input reduced into it;
  /// `nil` once the architecture is gone.
  ///
  /// It is read under the architecture's lock, between two reductions: never a state half
  /// reduced. It copies the state (a reference to its storage, not its contents): the
  /// architecture's next change to the parts it shares copies them once, so a middleware reads
  /// it when it needs it, not per input. Not from inside a reducer (the lock is held there).
  public func snapshot() -> MiddlewareSnapshot<State>? {
    read()
  }

  /// Opens the architecture's log of the inputs it reduces, for the middleware to take from a
  /// thread of its own (``MiddlewareLog/take()``); `nil` if the architecture keeps none (a
  /// custom architecture, a test's host), if one is open already, or if it is asked for after
  /// ``Middleware/attached(to:)`` returned.
  ///
  /// The architecture logs each input it reduces, with its sequence number, on the processing
  /// thread, specialized for its types, with no call into the middleware and no lock taken: the
  /// cheapest way to see every input. It gathers them where it is and hands them to the log as
  /// it runs out of work, or every few thousand while it has more; a take while it rests takes
  /// what it gathered too. `wake` is called, on the processing thread, with no lock held, once
  /// inputs were handed to the log after a ``MiddlewareLog/take()`` (and for the first): once
  /// per batch, to wake the thread that takes them, and always before the architecture rests,
  /// so that a middleware that reads a state at rest (``MiddlewareSnapshot/isResting``) and was
  /// not woken since its last take has taken every input logged up to it. A middleware with a
  /// log that has nothing left to do per input says so (``Middleware/processesInputs``), and
  /// its ``Middleware/process(_:)`` is no longer called.
  ///
  /// One log per architecture: the first middleware to ask for it has it. The log keeps every
  /// input until it is taken: a middleware that opens one takes it whenever it is woken.
  public func openLog(wake: @escaping @Sendable () -> Void) -> MiddlewareLog<Input, State>? {
    open(wake)
  }

  /// This host seen through `path`: for a middleware lifted onto a parent state
  /// (``Middleware/pullback(state:)``).
  public func scoped<Child: Sendable>(
    to path: any KeyPath<State, Child> & Sendable
  ) -> MiddlewareHost<Input, Child> {
    mapped(state: path) { ($0, nil) }
  }

  /// This host seen through a state path and an input transform: for a middleware lifted onto a
  /// parent state and input (``Middleware/pullback(state:input:embed:)``), or for a reactor's
  /// middlewares, which see its mutations as actions with their mutation.
  ///
  /// - Parameters:
  ///   - path: The path from this host's state to the middleware's.
  ///   - input: The middleware's input for one of this host's, with its mutation if it has one,
  ///     or `nil` for an input the middleware does not see (not in its log).
  /// - Returns: A host whose snapshots are the state at `path` and whose log has the inputs
  ///   `input` keeps, transformed.
  public func mapped<ChildInput: Sendable, ChildState: Sendable>(
    state path: any KeyPath<State, ChildState> & Sendable,
    input: @escaping @Sendable (Input) -> (ChildInput, (any Sendable)?)?
  ) -> MiddlewareHost<ChildInput, ChildState> {
    mapped(state: path, input: input, dispatcher: nil)
  }

  /// As ``mapped(state:input:)``, with this host's ``dispatcher`` mapped through `embed`, once:
  /// the dispatcher of the records the lifted middleware makes.
  package func mapped<ChildInput: Sendable, ChildState: Sendable>(
    state path: any KeyPath<State, ChildState> & Sendable,
    input: @escaping @Sendable (Input) -> (ChildInput, (any Sendable)?)?,
    embed: @escaping @Sendable (ChildInput) -> Input
  ) -> MiddlewareHost<ChildInput, ChildState> {
    mapped(
      state: path,
      input: input,
      dispatcher: dispatcher?.embedding(embed)
    )
  }

  private func mapped<ChildInput: Sendable, ChildState: Sendable>(
    state path: any KeyPath<State, ChildState> & Sendable,
    input: @escaping @Sendable (Input) -> (ChildInput, (any Sendable)?)?,
    dispatcher: MiddlewareDispatcher<ChildInput>?
  ) -> MiddlewareHost<ChildInput, ChildState> {
    let read = read
    let open = open
    return MiddlewareHost<ChildInput, ChildState>(
      snapshot: {
        read().map { snapshot in
          MiddlewareSnapshot(
            state: snapshot.state[keyPath: path],
            sequence: snapshot.sequence,
            isResting: snapshot.isResting
          )
        }
      },
      openLog: { wake in
        open(wake).map { $0.mapped(state: path, input: input) }
      },
      dispatcher: dispatcher
    )
  }
}

/// The state of an architecture as ``MiddlewareHost/snapshot()`` read it.
public struct MiddlewareSnapshot<State: Sendable>: Sendable {
  /// The state.
  public var state: State
  /// The ``MiddlewareRecord/sequence`` of the last input reduced into it; 0 before the first.
  public var sequence: UInt64
  /// Whether the architecture was at rest.
  ///
  /// At rest, no thread is processing: every input up to ``sequence`` has been through the
  /// middlewares' ``Middleware/process(_:)``. While it is not, the middlewares may not yet have
  /// seen the input of ``sequence``.
  public var isResting: Bool

  /// Creates a snapshot.
  public init(state: State, sequence: UInt64, isResting: Bool) {
    self.state = state
    self.sequence = sequence
    self.isResting = isResting
  }
}

/// An architecture's log of the inputs it reduces, opened by a middleware
/// (``MiddlewareHost/openLog(wake:)``), taken from a thread of the middleware's.
public struct MiddlewareLog<Input: Sendable, State: Sendable>: Sendable {
  private let takeBody: @Sendable () -> MiddlewareLogBatch<Input, State>
  private let captureBody: @Sendable (Int) -> Void
  private let giveBackBody: @Sendable (any Sendable) -> Void

  /// Creates a log whose ``giveBack(_:)`` lets go of what it is given at once, where it is
  /// given; architectures build these.
  ///
  /// - Parameters:
  ///   - take: Takes the inputs logged since the last take, and the states captured.
  ///   - captureStates: Asks for the state after each of the next `count` inputs.
  public init(
    take: @escaping @Sendable () -> MiddlewareLogBatch<Input, State>,
    captureStates: @escaping @Sendable (_ count: Int) -> Void
  ) {
    self.init(take: take, captureStates: captureStates, giveBack: { _ in })
  }

  /// Creates a log; architectures build these.
  ///
  /// - Parameters:
  ///   - take: Takes the inputs logged since the last take, and the states captured.
  ///   - captureStates: Asks for the state after each of the next `count` inputs.
  ///   - giveBack: Keeps what the middleware is done with for the processing thread to let go
  ///     of (``giveBack(_:)``).
  public init(
    take: @escaping @Sendable () -> MiddlewareLogBatch<Input, State>,
    captureStates: @escaping @Sendable (_ count: Int) -> Void,
    giveBack: @escaping @Sendable (_ values: any Sendable) -> Void
  ) {
    takeBody = take
    captureBody = captureStates
    giveBackBody = giveBack
  }

  /// The inputs logged since the last take, oldest first, with the states captured
  /// (``captureStates(next:)``); empty if none.
  ///
  /// From any thread. It takes the architecture's lock for a moment (the processing thread
  /// waits for it only while it swaps the log out): while the architecture is busy, the inputs
  /// it has gathered since it last handed them over come at the next take, and it wakes the
  /// middleware for them as it runs out of work (``MiddlewareHost/openLog(wake:)``).
  public func take() -> MiddlewareLogBatch<Input, State> {
    takeBody()
  }

  /// Asks the architecture to log the state after each of the next `count` inputs too (each a
  /// copy of the state, shared with the architecture's until its next change to it); 0 stops.
  ///
  /// An inspector asks for a few after each take, so that each step of an app used by hand has
  /// its state, and a busy app copies only those few per batch.
  public func captureStates(next count: Int) {
    captureBody(count)
  }

  /// Hands `values` — the inputs taken (``MiddlewareLogBatch/entries``), or what holds them,
  /// once the middleware is done with them — back to the processing thread, which lets go of
  /// them when it next hands inputs to the log or runs out of work.
  ///
  /// An input that holds memory (a value too large for an existential's inline buffer, such as
  /// a ``Core``'s boxed events; a string, an array) was allocated by the processing thread.
  /// Held by a middleware that lags behind (an inspector resting while the app is busy), it
  /// keeps that memory from the next inputs, and the processing thread's heap grows a page at a
  /// time, each a system call; let go of on the middleware's thread, its memory goes to that
  /// thread's caches. Given back as soon as the middleware has what it keeps of them (its own
  /// copy, made on its thread), the inputs' memory goes back to where the next inputs are
  /// allocated (`cascade-inspector-bench live-rpg`, the store inspected: the app's threads made
  /// 48,000 `mprotect` calls in a run with the inputs kept by the inspector, 11,000–16,000 with
  /// them given back at each take; 72 plain).
  ///
  /// The array of ``MiddlewareLogBatch/entries`` itself, given back as it was taken, is emptied
  /// by the processing thread one give-back later (by then this thread holds it no longer) and
  /// is among those later takes put in place, so the processing thread logs into memory it has
  /// touched; an array not given back leaves the log to log into a new one.
  ///
  /// A log that is a view of the architecture's (a reactor's, or a pulled-back middleware's:
  /// ``MiddlewareHost/mapped(state:input:)``) makes its entries anew at each take, on the
  /// middleware's thread, and gives the architecture's back at once: its own arrays of entries,
  /// given back, are let go of there and then, on the calling thread.
  ///
  /// From any thread. What is given back after the processing thread's last append waits for
  /// its next one, or for the log to end.
  public func giveBack(_ values: any Sendable) {
    giveBackBody(values)
  }

  /// This log seen through a state path and an input transform (``MiddlewareHost/mapped(state:input:)``):
  /// inputs the transform drops are left out, with their states.
  func mapped<ChildInput: Sendable, ChildState: Sendable>(
    state path: any KeyPath<State, ChildState> & Sendable,
    input: @escaping @Sendable (Input) -> (ChildInput, (any Sendable)?)?
  ) -> MiddlewareLog<ChildInput, ChildState> {
    let take = takeBody
    let giveBack = giveBackBody
    return MiddlewareLog<ChildInput, ChildState>(
      take: {
        let batch = take()
        // The architecture's own entries go back at once: the child's are made of them.
        defer { giveBack(batch.entries) }
        var seen = Set<UInt64>()
        var entries: [MiddlewareLogEntry<ChildInput>] = []
        entries.reserveCapacity(batch.entries.count)
        // Indices, not the entries' iterator: compiled for any type, each step of a generic
        // iterator looks its type up (``EngineInputLog``).
        for index in batch.entries.indices {
          let entry = batch.entries[index]
          guard let (child, mutation) = input(entry.input) else { continue }
          entries.append(
            MiddlewareLogEntry(
              input: child,
              mutation: mutation ?? entry.mutation,
              sequence: entry.sequence
            )
          )
          if !batch.states.isEmpty { seen.insert(entry.sequence) }
        }
        return MiddlewareLogBatch(
          entries: entries,
          states: batch.states.compactMap { logged in
            guard seen.contains(logged.sequence) else { return nil }
            return MiddlewareLoggedState(
              sequence: logged.sequence,
              state: logged.state[keyPath: path]
            )
          }
        )
      },
      captureStates: captureBody,
      giveBack: { values in
        // The child's own entries are let go of here, on the middleware's thread, which made
        // them: the inputs they share with the architecture's are held by its entries too,
        // given back at the take, whose processing thread lets go of them last. Passed on, the
        // processing thread freed arrays this thread had allocated (`cascade-inspector-bench
        // live-rpg`, the reactor inspected, under perf). The type compared, not cast to (see
        // ``EngineInputLog/giveBack(_:)``).
        guard type(of: values) != [MiddlewareLogEntry<ChildInput>].self else { return }
        giveBack(values)
      }
    )
  }
}

/// What ``MiddlewareLog/take()`` took.
public struct MiddlewareLogBatch<Input: Sendable, State: Sendable>: Sendable {
  /// The inputs, oldest first.
  public var entries: [MiddlewareLogEntry<Input>]
  /// The states captured (``MiddlewareLog/captureStates(next:)``), oldest first, each after the
  /// entry of its sequence.
  public var states: [MiddlewareLoggedState<State>]

  /// Creates a batch.
  public init(entries: [MiddlewareLogEntry<Input>], states: [MiddlewareLoggedState<State>]) {
    self.entries = entries
    self.states = states
  }
}

/// An input in a ``MiddlewareLog``.
public struct MiddlewareLogEntry<Input: Sendable>: Sendable {
  /// The input, as ``MiddlewareRecord/input``.
  public var input: Input
  /// Its ``MiddlewareRecord/sequence``.
  public var sequence: UInt64
  // `Optional<…>`, not `…?`: see ``MiddlewareRecord/mutation``. Boxed, a word, where
  // `(any Sendable)?` took five: the architecture's log holds one entry per input, which never
  // has a mutation (a reactor's are added by its log's view), and every byte of it is written
  // by the processing thread and read by the middleware's (`cascade-inspector-bench live-rpg`:
  // the feedback game's entries 208 → 176 bytes, the store's 88 → 56).
  /// The mutation, boxed.
  @usableFromInline var boxedMutation: Optional<MutationBox>

  /// The reactor's mutation, as ``MiddlewareRecord/mutation``.
  public var mutation: (any Sendable)? {
    get { boxedMutation?.mutation }
    set { boxedMutation = newValue.map(MutationBox.init) }
  }

  /// Creates an entry.
  ///
  /// Inlinable: the architecture makes one per input while a log is open, in code specialized
  /// for its input (`W1 Store (its input log open, …)`, callgrind: 863 → 748 instructions per
  /// action).
  @inlinable
  public init(input: Input, mutation: (any Sendable)? = nil, sequence: UInt64) {
    self.input = input
    self.sequence = sequence
    boxedMutation = mutation.map(MutationBox.init)
  }
}

/// A ``MiddlewareLogEntry``'s mutation.
@usableFromInline
final class MutationBox: Sendable {
  @usableFromInline let mutation: any Sendable

  @usableFromInline
  init(_ mutation: any Sendable) {
    self.mutation = mutation
  }
}

/// A state a ``MiddlewareLog`` captured: the state after the input of ``sequence``.
public struct MiddlewareLoggedState<State: Sendable>: Sendable {
  /// The ``MiddlewareRecord/sequence`` of the input it followed.
  public var sequence: UInt64
  /// The state.
  public var state: State

  /// Creates a captured state.
  public init(sequence: UInt64, state: State) {
    self.sequence = sequence
    self.state = state
  }
}
