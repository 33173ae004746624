import CascadeStore
import CascadeStreams

/// W3, large state: an array of 10,000 items; N actions, each toggling one item.
///
/// The items are `{ id, title, done }`; each action toggles `done` at an index drawn from
/// ``SplitMix64`` with a fixed seed (the same indexes in every run and column). One
/// `.synchronous` subscriber selects the number of items done, which every
/// toggle changes: N + 1 callbacks.
///
/// A store that copied the array per action would pay for 10,000 items per toggle. Two probes
/// show it: the reducer watches the array's buffer address and counts how often it moved (a copy
/// moves it; in-place mutation never does), and every run measures the peak resident memory
/// of the toggles alone (``MemoryProbe``), reported next to the state's own size.
enum W3 {
  static let workload = Workload(id: "W3", name: "large state", n: 100_000, quickN: 10_000)

  /// The number of items.
  static let count = 10_000
  /// The seed of the toggled indexes.
  static let seed: UInt64 = 0x5EED_0000_0000_0003

  struct Item: Sendable {
    var id: Int
    var title: String
    var done: Bool
  }

  struct State: Sendable {
    var items: [Item]
    var doneCount = 0
  }

  enum Action: Sendable {
    case toggle(Int)
  }

  /// 10,000 items, none done.
  ///
  /// The titles ("Item 1234") fit in a `String`'s inline storage, so
  /// the array's buffer is the whole state.
  @inline(never)
  static func makeState() -> State {
    State(items: (0..<count).map { Item(id: $0, title: "Item \($0)", done: false) })
  }

  /// The state's approximate size: the array's buffer (header and items) and the struct.
  static var stateBytes: Int {
    32 + count * MemoryLayout<Item>.stride + MemoryLayout<State>.size
  }

  /// Counts how often the array's buffer moved: only a copy moves it.
  final class BufferWatch: @unchecked Sendable {
    // Safety: used by the reducer only, which a store runs one action at a time, and read after
    // the run on the thread that ran it.
    private var address: UnsafeRawPointer?
    private(set) var moves = 0

    /// Records where the buffer is before the first action.
    func start(at address: UnsafeRawPointer?) {
      self.address = address
      moves = 0
    }

    func observe(_ address: UnsafeRawPointer?) {
      guard address != self.address else { return }
      self.address = address
      moves += 1
    }
  }

  static func makeReducer(_ watch: BufferWatch) -> @Sendable (inout State, Action) -> Void {
    let reducer: @Sendable (inout State, Action) -> Void = { state, action in
      switch action {
      case .toggle(let index):
        state.items[index].done.toggle()
        state.doneCount &+= state.items[index].done ? 1 : -1
      }
      watch.observe(state.items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
    }
    return opaque(reducer)
  }

  /// The address of the buffer of `items`; out of line, so the copy the caller passes is
  /// released when it returns.
  @inline(never)
  static func address(of items: [Item]) -> UnsafeRawPointer? {
    items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  /// The same toggles on a plain array: 0 done, then the done count after each toggle.
  static func expected(_ n: Int) -> Checksum {
    var done = [Bool](repeating: false, count: count)
    var random = SplitMix64(seed: seed)
    var checksum = Checksum(count: 1, sum: 0, last: 0)
    var doneCount = 0
    for _ in 0..<n {
      let index = random.index(below: count)
      done[index].toggle()
      doneCount += done[index] ? 1 : -1
      checksum.count += 1
      checksum.sum &+= doneCount
      checksum.last = doneCount
    }
    return checksum
  }

  static let reallocations = "array buffer moves"

  static func notes(_ measured: CellMeasurement) -> [String] {
    var notes: [String] = []
    if let moves = measured.counters[reallocations] {
      notes.append(
        "the items' buffer moved \(moves) times in N = \(Format.grouped(measured.n)) toggles "
          + "(0: mutated in place; about N: copied per action)"
      )
    }
    if let memory = measured.memory {
      notes.append(
        "state ≈ \(Format.bytes(memory.stateBytes)); setup \(Format.bytes(memory.setupBytes, signed: true)); "
          + "peak RSS during the toggles \(Format.bytes(memory.growthBytes, signed: true)) "
          + "over the setup (process peak \(Format.bytes(memory.peakBytes))"
          + "\(memory.peakWasReset ? "" : "; VmHWM could not be reset: growth above the earlier peak only"))"
      )
    } else {
      notes.append("peak memory not measured (Linux only)")
    }
    return notes
  }

  static let flatMemory = Goal(description: "flat memory (no copy per action)") { measured, _ in
    guard let memory = measured.memory, let moves = measured.counters[reallocations] else {
      return Goal.Verdict(met: false, detail: "memory not measured")
    }
    return Goal.Verdict(
      met: memory.isFlat && moves == 0,
      detail: "peak \(Format.bytes(memory.growthBytes, signed: true)) during the toggles "
        + "for a state of ≈ \(Format.bytes(memory.stateBytes)), buffer moved \(moves) times"
    )
  }

  static let cells = [
    Cell(
      workload,
      .plain,
      expected: expected,
      measuresMemory: true,
      notes: notes,
      outcome: runPlain
    ),
    Cell(
      workload,
      .store,
      expected: expected,
      measuresMemory: true,
      goal: .all([.minimumRate(5e6), flatMemory, .maximumRatio(2, to: .plain)]),
      notes: notes,
      outcome: runStore
    ),
    reactorCell,
    feedbackCell,
  ]

  static func runPlain(n: Int) throws -> Outcome {
    let tally = Tally()
    let watch = BufferWatch()
    let store = PlainStore(initialState: makeState(), reducer: makeReducer(watch))
    let select = opaque { @Sendable (state: State) in state.doneCount }
    let record = opaque { @Sendable (value: Int) in tally.record(value) }
    store.subscribe(select: select, record)
    watch.start(at: address(of: store.state.items))
    MemoryProbe.operationsBegin(stateBytes: stateBytes)
    Operations.begin()
    toggle(n: n, store)
    Operations.end()
    try checkFinal(store.state, tally)
    return Outcome(checksum: tally.checksum, counters: [reallocations: watch.moves])
  }

  static func runStore(n: Int) throws -> Outcome {
    let tally = Tally()
    let watch = BufferWatch()
    let store = Store(initialState: makeState(), reducer: makeReducer(watch))
    let subscription = store.subscribe(
      select: opaque { @Sendable (state: State) in state.doneCount },
      on: .synchronous,
      opaque { @Sendable (value: Int) in tally.record(value) }
    )
    watch.start(at: address(of: store.state.items))
    MemoryProbe.operationsBegin(stateBytes: stateBytes)
    Operations.begin()
    toggle(n: n, store)
    Operations.end()
    try checkFinal(store.state, tally)
    subscription.dispose()
    return Outcome(checksum: tally.checksum, counters: [reallocations: watch.moves])
  }

  /// The done count the subscriber saw last must be the state's, and the items'.
  static func checkFinal(_ state: State, _ tally: Tally) throws {
    let done = state.items.count(where: \.done)
    try check(
      state.doneCount == done && tally.checksum.last == done,
      "done count \(state.doneCount), \(done) items done, subscriber saw \(tally.checksum.last)"
    )
  }

  @inline(never)
  static func toggle(n: Int, _ store: PlainStore<State, Action>) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<n { store.send(.toggle(random.index(below: count))) }
  }

  @inline(never)
  static func toggle(n: Int, _ store: Store<State, Action>) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<n { store.send(.toggle(random.index(below: count))) }
  }
}
