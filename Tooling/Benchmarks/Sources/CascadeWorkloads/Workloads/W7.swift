import CascadeStore
import CascadeStreams
import Dispatch
import Synchronization

/// W7, burst: one producer thread sends N actions as fast as it can to a store whose one
/// subscriber is slow and runs on a serial dispatch queue (issue 19, "Bursts follow a stated
/// policy").
///
/// - **W7**: the Store subscribed with `.scheduler(…)`, its policy for a scheduler: it coalesces
///   to the latest state, so at most one delivery waits and memory stays flat.
/// - **W7b**: the Store subscribed with `.everyState(…)`: every state, in order, each waiting on
///   the queue, holding its state, while the subscriber is behind.
///
/// The `plain` column of both rows is ``QueuedPlainStore``: a struct behind a lock that posts
/// every state to a serial queue of its own, as an app would write it.
///
/// The state is a sequence number and 256 `Int`s (2 KiB): a state waiting on the queue keeps its
/// own copy of the array alive, so queuing every state costs memory. Action `i` (1 through N)
/// adds `i` to one element, round-robin. The subscriber reads the whole state (sums its values)
/// and then spins until 2 µs have passed since it was called: a subscriber slower than the
/// producer. A run ends when the subscriber has received the final state, by value (sequence
/// N), and signalled the producer, which waits for it.
///
/// Each run checks that the subscriber received increasing sequence numbers ending at N, that
/// every state was delivered or coalesced (deliveries + coalesced = N + 1, the initial state and
/// one per action), that nothing waits on the queue at the end, and, for W7b and the plain
/// column, that every state was delivered. How many deliveries a coalescing run makes depends on
/// how the two threads interleave, so it is a counter, not part of the checksum: the checksum is
/// the final state (its sequence, the sum of its values as the subscriber saw them) and the last
/// sequence delivered.
///
/// Memory is measured in every run (``MemoryProbe``): the resident memory before the burst
/// (the store and subscriber built), the peak during the burst, and the resident memory after
/// it drained.
enum W7 {
  static let latest = Workload(
    id: "W7",
    name: "burst, latest state",
    n: 1_000_000,
    quickN: 10_000,
    showsPeakMemory: true
  )
  static let every = Workload(
    id: "W7b",
    name: "burst, every state",
    n: 1_000_000,
    quickN: 10_000,
    showsPeakMemory: true
  )

  /// The number of `Int`s in the state.
  static let count = 256
  /// How long the subscriber takes per delivery, at least.
  static let subscriberWork = Duration.microseconds(2)
  /// How long a run waits for the final state before it fails.
  static let timeout = DispatchTimeInterval.seconds(120)

  struct State: Sendable {
    var sequence = 0
    var values = [Int](repeating: 0, count: count)
  }

  enum Action: Sendable {
    case add(Int)
  }

  /// The state's approximate size: the array's buffer (header and elements) and the struct.
  static var stateBytes: Int {
    32 + count * MemoryLayout<Int>.stride + MemoryLayout<State>.size
  }

  /// The reducer both columns run.
  static func makeReducer() -> @Sendable (inout State, Action) -> Void {
    let reducer: @Sendable (inout State, Action) -> Void = { state, action in
      switch action {
      case .add(let value):
        state.sequence &+= 1
        state.values[state.sequence % count] &+= value
      }
    }
    return opaque(reducer)
  }

  /// The final state: sequence N, values summing to 1 + 2 + … + N; the last delivery is it.
  static func expected(_ n: Int) -> Checksum {
    Checksum(count: n, sum: n &* (n &+ 1) / 2, last: n)
  }

  /// The slow subscriber: what it received, and a signal when the final state arrives.
  ///
  /// Its counts are atomics, so the class is plainly `Sendable`. `receive` runs on the
  /// subscription's serial queue, one delivery at a time, so relaxed operations suffice there;
  /// the harness thread reads the counts after ``waitForFinal()`` returned, ordered after the
  /// final delivery by the semaphore (and, if it timed out, for its message only).
  final class Receiver: Sendable {
    private let deliveryCount = Atomic<Int>(0)
    private let lastSequence = Atomic<Int>(-1)
    private let lastValuesSum = Atomic<Int>(0)
    private let outOfOrderCount = Atomic<Int>(0)
    private let final: Int
    private let done = DispatchSemaphore(value: 0)

    init(final: Int) {
      self.final = final
    }

    /// The deliveries received.
    var deliveries: Int { deliveryCount.load(ordering: .relaxed) }
    /// The sequence number of the last state received.
    var last: Int { lastSequence.load(ordering: .relaxed) }
    /// The sum of the values of the last state received.
    var lastSum: Int { lastValuesSum.load(ordering: .relaxed) }
    /// How many deliveries came after a later state.
    var outOfOrder: Int { outOfOrderCount.load(ordering: .relaxed) }

    func receive(_ state: State) {
      let clock = ContinuousClock()
      let deadline = clock.now.advanced(by: subscriberWork)
      var sum = 0
      for value in state.values { sum &+= value }
      deliveryCount.add(1, ordering: .relaxed)
      if state.sequence <= last { outOfOrderCount.add(1, ordering: .relaxed) }
      lastSequence.store(state.sequence, ordering: .relaxed)
      lastValuesSum.store(sum, ordering: .relaxed)
      while clock.now < deadline {}
      if state.sequence == final { done.signal() }
    }

    /// Returns once the final state was delivered; throws after ``W7/timeout``.
    func waitForFinal() throws {
      let result = done.wait(timeout: .now() + timeout)
      try check(
        result == .success,
        "no final state after \(timeout): the subscriber got \(deliveries) deliveries, "
          + "the last with sequence \(last)"
      )
    }
  }

  /// The names of the counters a run reports.
  enum Counter {
    static let deliveries = "deliveries"
    static let coalesced = "coalesced"
    static let peakBacklog = "peak backlog"
    static let sendNanoseconds = "send ns"
    /// Every counter above.
    static let all = [deliveries, coalesced, peakBacklog, sendNanoseconds]
  }

  static let cells = [
    Cell(
      latest,
      .plain,
      expected: expected,
      measuresMemory: true,
      notes: notes,
      outcome: runPlain
    ),
    Cell(
      latest,
      .store,
      expected: expected,
      measuresMemory: true,
      goal: .maximumPeakGrowth(megabytes: 10),
      notes: notes,
      outcome: { n in try runStore(n: n, everyState: false) }
    ),
    Cell(
      every,
      .plain,
      expected: expected,
      measuresMemory: true,
      notes: notes,
      outcome: runPlain
    ),
    Cell(
      every,
      .store,
      expected: expected,
      measuresMemory: true,
      notes: notes,
      outcome: { n in try runStore(n: n, everyState: true) }
    ),
  ]

  static func runPlain(n: Int) throws -> Outcome {
    let receiver = Receiver(final: n)
    let store = QueuedPlainStore(
      initialState: State(),
      queue: DispatchQueue(label: "W7 plain"),
      reducer: makeReducer()
    )
    store.subscribe(opaque { @Sendable (state: State) in receiver.receive(state) })
    MemoryProbe.operationsBegin(stateBytes: stateBytes)
    Operations.begin()
    let clock = ContinuousClock()
    let start = clock.now
    let peak = produce(n: n, store)
    let sent = clock.now - start
    try receiver.waitForFinal()
    Operations.end()
    try check(
      receiver.deliveries == n + 1,
      "\(receiver.deliveries) deliveries, expected every state: N + 1 = \(n + 1)"
    )
    try check(store.backlog == 0, "\(store.backlog) posts still waiting")
    return try outcome(receiver, final: store.currentState, coalesced: 0, peak, sent)
  }

  static func runStore(n: Int, everyState: Bool) throws -> Outcome {
    let receiver = Receiver(final: n)
    let scheduler = SerialDispatchQueueScheduler(label: "W7 Store")
    let store = Store(initialState: State(), reducer: makeReducer())
    let subscription = store.subscribe(
      on: everyState ? .everyState(scheduler) : .scheduler(scheduler),
      opaque { @Sendable (state: State) in receiver.receive(state) }
    )
    MemoryProbe.operationsBegin(stateBytes: stateBytes)
    Operations.begin()
    let clock = ContinuousClock()
    let start = clock.now
    let peak = produce(n: n, store)
    let sent = clock.now - start
    try receiver.waitForFinal()
    Operations.end()
    let coalesced = store.coalescedDeliveries
    try check(
      receiver.deliveries + coalesced == n + 1,
      "\(receiver.deliveries) deliveries and \(coalesced) coalesced, expected N + 1 = \(n + 1) "
        + "states in all"
    )
    try check(
      !everyState || coalesced == 0,
      "\(coalesced) states coalesced with everyState"
    )
    try check(store.deliveryBacklog == 0, "\(store.deliveryBacklog) deliveries still waiting")
    let final = store.state
    subscription.dispose()
    return try outcome(receiver, final: final, coalesced: coalesced, peak, sent)
  }

  /// Checks what the subscriber received, and reports it.
  static func outcome(
    _ receiver: Receiver,
    final: State,
    coalesced: Int,
    _ peakBacklog: Int,
    _ sent: Duration
  ) throws -> Outcome {
    try check(
      receiver.outOfOrder == 0,
      "\(receiver.outOfOrder) deliveries came after a later state"
    )
    try check(
      receiver.last == final.sequence,
      "the subscriber saw sequence \(receiver.last) last, the final state is \(final.sequence)"
    )
    return Outcome(
      checksum: Checksum(count: final.sequence, sum: receiver.lastSum, last: receiver.last),
      counters: [
        Counter.deliveries: receiver.deliveries,
        Counter.coalesced: coalesced,
        Counter.peakBacklog: peakBacklog,
        Counter.sendNanoseconds: Int(sent.seconds * 1e9),
      ]
    )
  }

  /// Sends actions 1 through N, sampling the deliveries waiting every 1,024 sends.
  @inline(never)
  static func produce(n: Int, _ store: QueuedPlainStore<State, Action>) -> Int {
    var peak = 0
    for value in 1..<(n + 1) {
      store.send(.add(value))
      if value & 1023 == 0 { peak = max(peak, store.backlog) }
    }
    return peak
  }

  @inline(never)
  static func produce(n: Int, _ store: Store<State, Action>) -> Int {
    var peak = 0
    for value in 1..<(n + 1) {
      store.send(.add(value))
      if value & 1023 == 0 { peak = max(peak, store.deliveryBacklog) }
    }
    return peak
  }

  static func notes(_ measured: CellMeasurement) -> [String] {
    var notes: [String] = []
    let counters = measured.counters
    if let delivered = counters[Counter.deliveries], let coalesced = counters[Counter.coalesced],
      let peak = counters[Counter.peakBacklog], let sent = counters[Counter.sendNanoseconds]
    {
      notes.append(
        "per run (medians), \(Format.grouped(delivered)) deliveries and "
          + "\(Format.grouped(coalesced)) states coalesced (of N + 1 = "
          + "\(Format.grouped(measured.n + 1))); the producer sent N in "
          + "\(Format.milliseconds(Double(sent) * 1e-9)); the deliveries waiting peaked at "
          + "\(Format.grouped(peak)) (sampled every 1,024 sends)"
      )
    }
    if let memory = measured.memory {
      notes.append(
        "RSS \(Format.megabytes(memory.baselineBytes)) before the burst, peak "
          + "\(Format.megabytes(memory.peakBytes)) "
          + "(\(Format.megabytes(memory.growthBytes, signed: true))), "
          + "\(Format.megabytes(memory.endBytes)) after it drained "
          + "(\(Format.megabytes(memory.endBytes - memory.baselineBytes, signed: true)); "
          + "\(Format.megabytes(memory.trimmedEndBytes)) after malloc_trim); "
          + "state ≈ \(Format.bytes(memory.stateBytes))"
          + "\(memory.peakWasReset ? "" : "; VmHWM could not be reset: growth above the earlier peak only")"
      )
    } else {
      notes.append("peak memory not measured (Linux only)")
    }
    return notes
  }
}
