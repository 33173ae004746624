public import CascadeStreams
public import Synchronization

/// The log of inputs a middleware opened (``MiddlewareHost/openLog(wake:)``).
///
/// The engine appends each input it reduces, with its sequence number, and the state after it
/// while states are asked for, on the processing thread, in code specialized for its types,
/// under the log's own lock (never the engine's); the middleware's thread takes them in
/// batches. The arrays taken come back emptied, with their room, so that the processing thread
/// appends into memory it has already touched.
///
/// The take makes the entries with a function the processing thread's append set
/// (``Buffer/makeEntries``): made in code specialized for the log's types, where a loop of the
/// take's own, compiled for any type, looked up generic metadata for each input (about a
/// microsecond an input, `cascade-inspector-bench live-rpg` under perf: a take of a busy app's
/// 40,000 inputs kept the inspection's thread busy for 50 ms at once).
///
/// What the middleware's thread is done with comes back (``giveBack(_:)``) and is let go of by
/// the processing thread at its next append, so that the inputs it allocated are freed where
/// its allocator hands the memory out again (``MiddlewareLog/giveBack(_:)``).
@usableFromInline
final class EngineInputLog<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline let storage = LockedValue(Buffer())
  /// Wakes the middleware's thread (``MiddlewareHost/openLog(wake:)``).
  @usableFromInline let wake: @Sendable () -> Void
  /// Whether states are asked for (``Buffer/statesWanted`` is above 0), read without the lock:
  /// the engine copies the state for ``append(_:sequence:state:)`` only while it is `true`.
  @usableFromInline let wantsStates = Atomic<Bool>(false)
  /// Whether values were given back (``Buffer/givenBack`` is not empty), read without the lock
  /// after each append: set after they are added, cleared before they are taken.
  @usableFromInline let hasGivenBack = Atomic<Bool>(false)

  /// What the processing thread and the middleware's thread share.
  @usableFromInline
  struct Buffer: Sendable {
    @usableFromInline var inputs: [Action] = []
    @usableFromInline var sequences: [UInt64] = []
    @usableFromInline var states: [MiddlewareLoggedState<State>] = []
    /// How many of the next inputs are logged with the state after them.
    @usableFromInline var statesWanted = 0
    /// Whether the next input logged wakes the middleware's thread: the first after a take.
    @usableFromInline var wakes = true
    /// Makes the entries of a take, specialized for the log's types; set by the first append.
    @usableFromInline var makeEntries: EntriesMaker?
    /// The arrays last taken, emptied, for the next take to put in place.
    var spareInputs: [Action] = []
    var spareSequences: [UInt64] = []
    /// What the middleware's thread gave back, for the processing thread to let go of.
    var givenBack: [any Sendable] = []

    @usableFromInline
    init() {}
  }

  /// Makes the entries of inputs and their sequences.
  @usableFromInline
  typealias EntriesMaker = @Sendable ([Action], [UInt64]) -> [MiddlewareLogEntry<Action>]

  /// The function that makes the entries, specialized where this is inlined (the processing
  /// thread's append).
  @inlinable
  static func entriesMaker() -> EntriesMaker {
    { inputs, sequences in
      var entries: [MiddlewareLogEntry<Action>] = []
      entries.reserveCapacity(inputs.count)
      for index in inputs.indices {
        entries.append(MiddlewareLogEntry(input: inputs[index], sequence: sequences[index]))
      }
      return entries
    }
  }

  init(wake: @escaping @Sendable () -> Void) {
    self.wake = wake
  }

  /// Logs `action`, reduced as input `sequence`, with `state`, the state after it, if states
  /// are asked for (``wantsStates``); wakes the middleware's thread if it is the first since a
  /// take (with no lock held).
  ///
  /// The state is a value, not a closure reading it: a closure over the engine retained the
  /// engine, whose weak references (its dispatcher's) make each retain a call into the
  /// runtime's side table (`cascade-inspector-bench live-rpg`, under perf: half the time of
  /// the append).
  @inlinable
  func append(_ action: Action, sequence: UInt64, state: State?) {
    let wakes = storage.withLock { buffer in
      if buffer.makeEntries == nil { buffer.makeEntries = Self.entriesMaker() }
      buffer.inputs.append(action)
      buffer.sequences.append(sequence)
      if let state, buffer.statesWanted > 0 {
        buffer.statesWanted -= 1
        buffer.states.append(MiddlewareLoggedState(sequence: sequence, state: state))
        if buffer.statesWanted == 0 { wantsStates.store(false, ordering: .relaxed) }
      }
      let wakes = buffer.wakes
      buffer.wakes = false
      return wakes
    }
    if wakes { wake() }
    if hasGivenBack.load(ordering: .relaxed) { letGoOfGivenBack() }
  }

  /// Keeps `values`, which the middleware's thread is done with, for the processing thread to
  /// let go of at its next append.
  func giveBack(_ values: any Sendable) {
    storage.withLock { $0.givenBack.append(values) }
    hasGivenBack.store(true, ordering: .releasing)
  }

  /// Lets go of what was given back, on the processing thread, with no lock held.
  @usableFromInline
  func letGoOfGivenBack() {
    hasGivenBack.store(false, ordering: .relaxed)
    var givenBack: [any Sendable] = []
    storage.withLock { swap(&givenBack, &$0.givenBack) }
    // Let go of here, outside the lock: freeing them may run their deinitializers.
    givenBack.removeAll()
  }

  /// The inputs and states logged since the last take.
  func take() -> MiddlewareLogBatch<Action, State> {
    let (inputs, sequences, states, makeEntries) = storage.withLock { buffer in
      var inputs = buffer.spareInputs
      var sequences = buffer.spareSequences
      buffer.spareInputs = []
      buffer.spareSequences = []
      swap(&inputs, &buffer.inputs)
      swap(&sequences, &buffer.sequences)
      let states = buffer.states
      buffer.states = []
      buffer.wakes = true
      return (inputs, sequences, states, buffer.makeEntries)
    }
    // No entries made before the first append.
    let entries = makeEntries?(inputs, sequences) ?? []
    var emptied = (inputs, sequences)
    emptied.0.removeAll(keepingCapacity: true)
    emptied.1.removeAll(keepingCapacity: true)
    storage.withLock { buffer in
      if buffer.spareInputs.capacity < emptied.0.capacity {
        buffer.spareInputs = emptied.0
        buffer.spareSequences = emptied.1
      }
    }
    return MiddlewareLogBatch(entries: entries, states: states)
  }

  /// Logs the state after each of the next `count` inputs.
  func captureStates(next count: Int) {
    storage.withLock { buffer in
      buffer.statesWanted = max(0, count)
      wantsStates.store(count > 0, ordering: .relaxed)
    }
  }
}
