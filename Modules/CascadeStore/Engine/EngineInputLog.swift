public import CascadeStreams
public import Synchronization

/// The log of inputs a middleware opened (``MiddlewareHost/openLog(wake:)``).
///
/// The engine appends each input it reduces, as a ``MiddlewareLogEntry`` with its sequence
/// number, and the state after it while states are asked for, on the processing thread, in code
/// specialized for its types, under the log's own lock (never the engine's); the middleware's
/// thread takes the entries in batches — the array itself, swapped out under the lock, not a
/// copy: a copy made on the middleware's thread retained every input there, writing to memory
/// the processing thread had just allocated and would soon allocate again.
///
/// What the middleware's thread is done with comes back (``giveBack(_:)``) and is let go of by
/// the processing thread, so that the inputs it allocated are freed where its allocator hands
/// the memory out again (``MiddlewareLog/giveBack(_:)``). An array of entries given back is
/// emptied there, in specialized code, one give-back later (by then the middleware's thread
/// holds it no longer, and it is emptied in place), and becomes the array the next take puts in
/// place: the processing thread appends into memory it has already touched.
@usableFromInline
final class EngineInputLog<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline let storage = LockedValue(Buffer())
  /// Wakes the middleware's thread (``MiddlewareHost/openLog(wake:)``).
  @usableFromInline let wake: @Sendable () -> Void
  /// Whether states are asked for (``Buffer/statesWanted`` is above 0), read without the lock:
  /// the engine copies the state for ``append(_:sequence:state:)`` only while it is `true`, and
  /// calls ``append(_:sequence:)`` otherwise.
  @usableFromInline let wantsStates = Atomic<Bool>(false)
  /// Whether values were given back (``Buffer/givenBack`` or ``Buffer/givenBackEntries`` is not
  /// empty), read without the lock after each append: set after they are added, cleared before
  /// they are taken.
  @usableFromInline let hasGivenBack = Atomic<Bool>(false)

  @usableFromInline typealias Entry = MiddlewareLogEntry<Action>

  /// What the processing thread and the middleware's thread share.
  @usableFromInline
  struct Buffer: Sendable {
    /// The entries logged since the last take.
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var states: [MiddlewareLoggedState<State>] = []
    /// How many of the next inputs are logged with the state after them.
    @usableFromInline var statesWanted = 0
    /// Whether the next input logged wakes the middleware's thread: the first after a take.
    @usableFromInline var wakes = true
    /// An array of entries emptied by the processing thread, with its room, for the next take
    /// to put in place.
    @usableFromInline var spare: [Entry] = []
    /// How many entries the last take took: the room of the array put in place when there is no
    /// spare (the middleware kept what it took).
    var lastTaken = 0
    /// Arrays of entries the middleware's thread gave back, for the processing thread.
    @usableFromInline var givenBackEntries: [[Entry]] = []
    /// Arrays of entries given back one give-back earlier, for the processing thread to empty.
    @usableFromInline var agedEntries: [[Entry]] = []
    /// Anything else the middleware's thread gave back, for the processing thread to let go of.
    @usableFromInline var givenBack: [any Sendable] = []

    @usableFromInline
    init() {}

    /// After an entry is appended, under the lock: whether it wakes the middleware's thread
    /// (the first since a take).
    @inlinable
    mutating func appended() -> Bool {
      let wakes = self.wakes
      self.wakes = false
      return wakes
    }
  }

  init(wake: @escaping @Sendable () -> Void) {
    self.wake = wake
  }

  /// Logs `action`, reduced as input `sequence`; wakes the middleware's thread if it is the
  /// first since a take (with no lock held).
  ///
  /// The engine calls this while no state is asked for (``wantsStates``), and
  /// ``append(_:sequence:state:)``, out of line, while one is: with an optional state for
  /// both, the engine made an empty optional of its state each time, copied it twice on its
  /// stack and destroyed it through its type's value witnesses (`cascade-inspector-bench
  /// live-rpg`, the feedback game's 232-byte state, under perf).
  @inlinable
  func append(_ action: Action, sequence: UInt64) {
    let wakes = storage.withLock { buffer in
      buffer.entries.append(Entry(input: action, sequence: sequence))
      return buffer.appended()
    }
    appended(waking: wakes)
  }

  /// Logs `action`, reduced as input `sequence`, with `state`, the state after it, if states
  /// are still asked for (``captureStates(next:)``).
  ///
  /// The state is a value, not a closure reading it: a closure over the engine retained the
  /// engine, whose weak references (its dispatcher's) make each retain a call into the
  /// runtime's side table (`cascade-inspector-bench live-rpg`, under perf: half the time of
  /// the append).
  ///
  /// Inlinable but never inlined: specialized, and out of the engine's way.
  @inlinable @inline(never)
  func append(_ action: Action, sequence: UInt64, state: State) {
    let wakes = storage.withLock { buffer in
      buffer.entries.append(Entry(input: action, sequence: sequence))
      if buffer.statesWanted > 0 {
        buffer.statesWanted -= 1
        buffer.states.append(MiddlewareLoggedState(sequence: sequence, state: state))
        if buffer.statesWanted == 0 { wantsStates.store(false, ordering: .relaxed) }
      }
      return buffer.appended()
    }
    appended(waking: wakes)
  }

  /// After an append, with no lock held: wakes the middleware's thread if `waking`, and lets go
  /// of what it gave back, if anything.
  @inlinable @inline(__always)
  func appended(waking: Bool) {
    if waking { wake() }
    if hasGivenBack.load(ordering: .relaxed) { letGoOfGivenBack() }
  }

  /// Keeps `values`, which the middleware's thread is done with, for the processing thread to
  /// let go of at its next append; an array of this log's entries, to empty and append into
  /// again.
  func giveBack(_ values: any Sendable) {
    // The type compared, not cast to: an array of another type cast to this one is cast element
    // by element.
    if type(of: values) == [Entry].self, let entries = values as? [Entry] {
      storage.withLock { $0.givenBackEntries.append(entries) }
    } else {
      storage.withLock { $0.givenBack.append(values) }
    }
    hasGivenBack.store(true, ordering: .releasing)
  }

  /// Lets go of what was given back, on the processing thread, with no lock held; empties the
  /// arrays of entries given back one give-back earlier, in code specialized for the log's
  /// types, and keeps the roomiest for the next take.
  ///
  /// Inlinable but never inlined: specialized, and out of the append's way.
  @inlinable @inline(never)
  func letGoOfGivenBack() {
    hasGivenBack.store(false, ordering: .relaxed)
    var givenBack: [any Sendable] = []
    var aged: [[Entry]] = []
    storage.withLock { buffer in
      swap(&givenBack, &buffer.givenBack)
      // The arrays given back now may still be held by the middleware's thread, on its way out
      // of `giveBack`: emptied in place only at the next give-back.
      swap(&aged, &buffer.agedEntries)
      swap(&buffer.agedEntries, &buffer.givenBackEntries)
    }
    // Let go of here, outside the lock: freeing them may run their deinitializers.
    givenBack.removeAll()
    guard !aged.isEmpty else { return }
    var spare: [Entry] = []
    while var entries = aged.popLast() {
      entries.removeAll(keepingCapacity: true)
      if entries.capacity > spare.capacity { swap(&spare, &entries) }
    }
    storage.withLock { buffer in
      if buffer.spare.capacity < spare.capacity { swap(&buffer.spare, &spare) }
    }
  }

  /// The inputs and states logged since the last take.
  func take() -> MiddlewareLogBatch<Action, State> {
    let (entries, states, room) = storage.withLock { buffer in
      var entries = buffer.spare
      buffer.spare = []
      swap(&entries, &buffer.entries)
      let states = buffer.states
      buffer.states = []
      buffer.wakes = true
      let room = buffer.entries.capacity == 0 ? buffer.lastTaken : 0
      buffer.lastTaken = entries.count
      return (entries, states, room)
    }
    if room > 0 {
      // No spare: the middleware kept what it took. An array with the room the last take
      // needed, made here, so that the processing thread does not grow one as it appends.
      var fresh: [Entry] = []
      fresh.reserveCapacity(room)
      storage.withLock { buffer in
        if buffer.entries.isEmpty, buffer.entries.capacity < room { swap(&buffer.entries, &fresh) }
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
