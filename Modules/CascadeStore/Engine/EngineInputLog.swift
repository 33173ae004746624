public import CascadeStreams
public import Synchronization

/// The log of inputs a middleware opened (``MiddlewareHost/openLog(wake:)``).
///
/// The engine gathers the inputs it reduces, as ``MiddlewareLogEntry`` values with their
/// sequence numbers, on the processing thread, in code specialized for its types
/// (``gathered``), and adds them to the log in runs, under the log's own lock, with the state
/// after an input while states are asked for; the middleware's thread takes them in batches —
/// the array itself, swapped out under the lock, not a copy: a copy made on the middleware's
/// thread retained every input there, writing to memory the processing thread had just
/// allocated and would soon allocate again. The protocol between the two threads is
/// ``StoreEngine/log(_:sequence:)``'s.
///
/// What the middleware's thread is done with comes back (``giveBack(_:)``) and is let go of by
/// the processing thread, so that the inputs it allocated are freed where its allocator hands
/// the memory out again (``MiddlewareLog/giveBack(_:)``). An array of entries given back is
/// emptied there, in specialized code, one give-back later (by then the middleware's thread
/// holds it no longer, and it is emptied in place), and becomes the array the next take puts in
/// place: the processing thread gathers into memory it has already touched.
@usableFromInline
final class EngineInputLog<State: Sendable, Action: Sendable>: Sendable {
  /// The inputs the engine reduced, with their sequence numbers, not yet added to the log.
  ///
  /// The holder appends to it (``gather(_:sequence:run:)``) and adds it to the log in runs
  /// (``addGathered()``); the middleware's thread collects it while the engine rests
  /// (``take(collecting:room:)``). Kept, with its room, from one holding of the token to the
  /// next.
  ///
  /// Read and written through ``gathered`` without its own lock, as the engine's ``HolderState``
  /// is: by the thread holding the engine's processing token, or under the engine's lock while
  /// no thread holds it; the token passes from one thread to the next under that lock. A
  /// `LockedValue` for its pointer, allocated once, as the engine's state machine: a class's
  /// stored `var` paid a dynamic exclusivity check at each input (`cascade-inspector-bench
  /// live-rpg`, the feedback loop's game inspected: 2,830 → 2,917 ns an intent), and kept in the
  /// state machine, the holder's writes to it, unlocked, were writes to the value the other
  /// threads change under the lock (ThreadSanitizer reports them). Under ThreadSanitizer in CI
  /// (`MiddlewareLogConcurrencyTests`, `LiveInspectorConcurrencyTests`).
  @usableFromInline let gatheredStorage = LockedValue<[Entry]>([])
  /// ``gatheredStorage``'s value, for the holder or the engine's lock.
  @inlinable var gathered: UnsafeMutablePointer<[Entry]> { gatheredStorage.unsafeValue }
  @usableFromInline let storage = LockedValue(Buffer())
  /// Wakes the middleware's thread (``MiddlewareHost/openLog(wake:)``).
  @usableFromInline let wake: @Sendable () -> Void
  /// Whether states are asked for (``Buffer/statesWanted`` is above 0), read without the lock:
  /// the engine copies the state for ``append(_:sequence:state:)`` only while it is `true`.
  @usableFromInline let wantsStates = Atomic<Bool>(false)
  /// Whether values were given back (``Buffer/givenBack`` or ``Buffer/givenBackEntries`` is not
  /// empty), read without the lock: set after they are added, cleared before they are taken.
  @usableFromInline let hasGivenBack = Atomic<Bool>(false)

  @usableFromInline typealias Entry = MiddlewareLogEntry<Action>

  /// What the processing thread and the middleware's thread share.
  @usableFromInline
  struct Buffer: Sendable {
    /// The entries added since the last take.
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var states: [MiddlewareLoggedState<State>] = []
    /// How many of the next inputs are logged with the state after them.
    @usableFromInline var statesWanted = 0
    /// Arrays of entries emptied by the processing thread, with their room, for the next takes
    /// to put in place (at most ``EngineInputLog/mostSpares``).
    @usableFromInline var spares: [[Entry]] = []
    /// How many entries the last take took: the room of the array put in place when there is no
    /// spare (the middleware kept what it took).
    @usableFromInline var lastTaken = 0
    /// The array a take copies the fewer inputs into when both the log and what the processing
    /// thread gathered hold some (``EngineInputLog/take(collecting:room:)``), emptied.
    @usableFromInline var copies: [Entry] = []
    /// Arrays of entries the middleware's thread gave back, for the processing thread.
    @usableFromInline var givenBackEntries: [[Entry]] = []
    /// Arrays of entries given back one give-back earlier, for the processing thread to empty.
    @usableFromInline var agedEntries: [[Entry]] = []
    /// Anything else the middleware's thread gave back, for the processing thread to let go of.
    @usableFromInline var givenBack: [any Sendable] = []

    @usableFromInline
    init() {
      // Its room made once: kept, spares are inserted and removed without an allocation.
      spares.reserveCapacity(EngineInputLog.mostSpares + 1)
    }

    /// Keeps `spare`, an emptied array, among ``spares``, from the least roomy to the roomiest
    /// (which the next take puts in place); leaves in `spare` the least roomy beyond
    /// ``EngineInputLog/mostSpares``, for the caller to let go of after the lock, or an empty
    /// array.
    ///
    /// Appended and moved into place by swaps: `insert(_:at:)` allocated at each call.
    @usableFromInline
    mutating func keep(spare: inout [Entry]) {
      spares.append([])
      var position = spares.count - 1
      swap(&spares[position], &spare)
      while position > 0, spares[position - 1].capacity > spares[position].capacity {
        spares.swapAt(position - 1, position)
        position -= 1
      }
      guard spares.count > EngineInputLog.mostSpares else { return }
      for index in 0..<(spares.count - 1) { spares.swapAt(index, index + 1) }
      swap(&spares[spares.count - 1], &spare)
      spares.removeLast()
    }
  }

  /// How many emptied arrays of entries are kept for the next takes (``Buffer/spares``): the
  /// arrays given back come back two takes later (``letGoOfGivenBack()``), so with one, a take
  /// often found none and put in place a fresh array, which the processing thread then wrote
  /// into a page fault at a time (`cascade-inspector-bench live-rpg`, under perf).
  @inlinable static var mostSpares: Int { 4 }

  init(wake: @escaping @Sendable () -> Void) {
    self.wake = wake
  }

  /// Gathers `action`, reduced as input `sequence`, on the processing thread: whether the
  /// inputs gathered are now a multiple of `run` (a power of two), for the engine to add them.
  @inlinable
  func gather(_ action: Action, sequence: UInt64, run: Int) -> Bool {
    gathered.pointee.append(Entry(input: action, sequence: sequence))
    return gathered.pointee.count & (run - 1) == 0
  }

  /// Whether inputs were gathered and not yet added to the log.
  @inlinable var hasGathered: Bool { !gathered.pointee.isEmpty }

  /// Adds the inputs gathered (``gathered``) to the log, in one take of its lock, and empties
  /// them; on the processing thread.
  ///
  /// When the log holds none (the middleware took them), the arrays are swapped: the inputs
  /// are added without a copy, and the processing thread gathers next into the array the last
  /// take put in place.
  @inlinable
  func addGathered() {
    let gathered = self.gathered
    guard !gathered.pointee.isEmpty else { return }
    let copied = storage.withLock { buffer in
      guard buffer.entries.isEmpty else {
        buffer.entries.append(contentsOf: gathered.pointee)
        return true
      }
      swap(&buffer.entries, &gathered.pointee)
      return false
    }
    // Outside the log's lock: the log holds the inputs too, so none is freed here.
    if copied { gathered.pointee.removeAll(keepingCapacity: true) }
  }

  /// Logs `action`, reduced as input `sequence`, with `state`, the state after it, if states
  /// are still asked for (``captureStates(next:)``); after what was gathered before it
  /// (``addGathered()``).
  ///
  /// The state is a value, not a closure reading it: a closure over the engine retained the
  /// engine, whose weak references (its dispatcher's) make each retain a call into the
  /// runtime's side table (`cascade-inspector-bench live-rpg`, under perf: half the time of
  /// the append).
  ///
  /// Inlinable but never inlined: specialized, and out of the engine's way.
  @inlinable @inline(never)
  func append(_ action: Action, sequence: UInt64, state: State) {
    storage.withLock { buffer in
      buffer.entries.append(Entry(input: action, sequence: sequence))
      if buffer.statesWanted > 0 {
        buffer.statesWanted -= 1
        buffer.states.append(MiddlewareLoggedState(sequence: sequence, state: state))
        if buffer.statesWanted == 0 { wantsStates.store(false, ordering: .relaxed) }
      }
    }
  }

  /// Lets go of what the middleware's thread gave back, if anything, with no lock held; on the
  /// processing thread, after it added to the log or gave up the token.
  @inlinable @inline(__always)
  func letGoOfGivenBackIfAny() {
    if hasGivenBack.load(ordering: .relaxed) { letGoOfGivenBack() }
  }

  /// Keeps `values`, which the middleware's thread is done with, for the processing thread to
  /// let go of when it next adds to the log or gives up the token
  /// (``letGoOfGivenBackIfAny()``); an array of this log's entries, to empty and gather into
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
  /// types, and keeps the roomiest for the next takes.
  ///
  /// Inlinable but never inlined: specialized, and out of the engine's way.
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
    for index in aged.indices { aged[index].removeAll(keepingCapacity: true) }
    storage.withLock { buffer in
      for index in aged.indices { buffer.keep(spare: &aged[index]) }
    }
  }

  /// The inputs and states added since the last take and, if `collecting`, the inputs the
  /// processing thread gathered since (``gathered``: only while no thread holds the token);
  /// `room`, the room of an array to put in place for the next inputs, for ``makeRoom(_:)``.
  ///
  /// Under the engine's lock (``StoreEngine/takeLog()``), so only swaps, and a copy of the
  /// fewer inputs when both the log and ``gathered`` hold some (the processing thread added some
  /// to the log, at the end of its work or while states were asked for, then went on gathering
  /// and came to rest): `copied`, to put before the batch's entries if `copiedFirst`, else
  /// after, with no lock held, then kept for the next such copy (``keep(copy:)``). The
  /// processing thread then gathers next into an emptied array with room: the log's, or its
  /// own.
  @inlinable
  func take(
    collecting: Bool,
    room: inout Int
  ) -> (batch: MiddlewareLogBatch<Action, State>, copied: [Entry], copiedFirst: Bool) {
    var copied: [Entry] = []
    var copiedFirst = false
    let gathered = self.gathered
    let (entries, states, roomNeeded) = storage.withLock { buffer in
      var entries: [Entry] = []
      swap(&entries, &buffer.entries)
      if collecting, !gathered.pointee.isEmpty, entries.isEmpty {
        // The processing thread gathers next into the log's emptied array.
        swap(&entries, &gathered.pointee)
      } else if collecting, !gathered.pointee.isEmpty {
        // The fewer copied, into the array kept for these copies (``keep(copy:)`` puts it back
        // once they are put together); theirs emptied for the processing thread.
        swap(&copied, &buffer.copies)
        copiedFirst = entries.count <= gathered.pointee.count
        if copiedFirst {
          copied.append(contentsOf: entries)
          entries.removeAll(keepingCapacity: true)
          swap(&entries, &gathered.pointee)
        } else {
          copied.append(contentsOf: gathered.pointee)
          gathered.pointee.removeAll(keepingCapacity: true)
        }
      }
      if let spare = buffer.spares.popLast() { buffer.entries = spare }
      let states = buffer.states
      buffer.states = []
      let room = buffer.entries.capacity == 0 ? buffer.lastTaken : 0
      buffer.lastTaken = entries.count + copied.count
      return (entries, states, room)
    }
    room = roomNeeded
    return (MiddlewareLogBatch(entries: entries, states: states), copied, copiedFirst)
  }

  /// Keeps `copy`, an array of entries ``take(collecting:room:)`` copied, emptied, for the next
  /// such copy; on the middleware's thread.
  func keep(copy: inout [Entry]) {
    copy.removeAll(keepingCapacity: true)
    storage.withLock { buffer in
      if buffer.copies.capacity < copy.capacity { swap(&buffer.copies, &copy) }
    }
  }

  /// Puts in place an array with room for `room` entries, made on the middleware's thread with
  /// no lock held, when the last take found no spare (the middleware kept what it took): the
  /// processing thread then does not grow one as it gathers.
  func makeRoom(_ room: Int) {
    guard room > 0 else { return }
    var fresh: [Entry] = []
    fresh.reserveCapacity(room)
    storage.withLock { buffer in
      if buffer.entries.isEmpty, buffer.entries.capacity < room { swap(&buffer.entries, &fresh) }
    }
  }

  /// Logs the state after each of the next `count` inputs.
  func captureStates(next count: Int) {
    storage.withLock { buffer in
      buffer.statesWanted = max(0, count)
      wantsStates.store(count > 0, ordering: .relaxed)
    }
  }
}
