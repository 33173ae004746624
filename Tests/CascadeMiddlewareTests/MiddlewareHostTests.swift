import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

/// A middleware's view of its architecture (`Middleware.attached(to:)`, `MiddlewareHost`): handed
/// once, before the first input; its snapshots are the architecture's state with the sequence of
/// the last input reduced into it.
@Suite(.checksResources)
struct MiddlewareHostTests {
  /// Keeps the host it is handed, the snapshot it read then, and the records' sequences.
  final class Keeper: Middleware, Sendable {
    let hosts = Journal<MiddlewareHost<Op, Tally>>()
    let atAttach = Journal<MiddlewareSnapshot<Tally>?>()
    let sequences = Journal<UInt64>()

    var interceptsInputs: Bool { false }

    func attached(to host: MiddlewareHost<Op, Tally>) {
      hosts.append(host)
      atAttach.append(host.snapshot())
    }

    func process(_ record: MiddlewareRecord<Op, Tally>) {
      #expect(hosts.values.count == 1, "attached before the first input")
      sequences.append(record.sequence)
    }
  }

  @Test(arguments: Arch.allCases)
  func theHostIsHandedOnceBeforeTheFirstInputAndReadsTheStateWithItsSequence(_ arch: Arch) throws {
    let keeper = Keeper()
    let running = Running.make(arch, middlewares: [keeper])
    for op in [Op.add(2), .multiply(5), .note("x")] { running.send(op) }

    let host = try #require(keeper.hosts.values.first)
    #expect(keeper.hosts.values.count == 1)
    let first = try #require(keeper.atAttach.values.first ?? nil)
    #expect(first.state == Tally())
    #expect(first.sequence == 0)

    let snapshot = try #require(host.snapshot())
    #expect(snapshot.state == running.state())
    #expect(snapshot.state.value == 10)
    #expect(snapshot.sequence == keeper.sequences.values.last)
    #expect(snapshot.isResting)
  }

  @Test(arguments: Arch.allCases)
  func aHostOutlivingItsArchitectureReadsNothing(_ arch: Arch) throws {
    let keeper = Keeper()
    do {
      let running = Running.make(arch, middlewares: [keeper])
      running.send(.add(1))
      #expect(keeper.hosts.values.first?.snapshot()?.state.value == 1)
    }
    let host = try #require(keeper.hosts.values.first)
    #expect(host.snapshot() == nil)
  }

  /// Sees the count only: a middleware written for a child state.
  final class CountKeeper: Middleware, Sendable {
    typealias Input = Op
    let hosts = Journal<MiddlewareHost<Op, Int>>()
    var interceptsInputs: Bool { false }
    func attached(to host: MiddlewareHost<Op, Int>) { hosts.append(host) }
  }

  @Test(arguments: Arch.allCases)
  func aMiddlewarePulledBackReadsItsPartOfTheState(_ arch: Arch) throws {
    let keeper = CountKeeper()
    let running = Running.make(arch, middlewares: [keeper.pullback(state: \Tally.value)])
    running.send(.add(7))
    running.send(.note("n"))

    let snapshot = try #require(keeper.hosts.values.first?.snapshot())
    #expect(snapshot.state == 7)
    #expect(snapshot.sequence == 2)
  }

  @Test func aStackHandsItsHostToEveryMiddleware() throws {
    let first = Keeper()
    let second = Keeper()
    let stack = MiddlewareStack<Op, Tally>([first, second])
    let host = MiddlewareHost<Op, Tally>(snapshot: {
      MiddlewareSnapshot(state: Tally(value: 3), sequence: 4, isResting: false)
    })
    stack.attach(to: host)

    for keeper in [first, second] {
      let snapshot = try #require(keeper.hosts.values.first?.snapshot())
      #expect(snapshot.state.value == 3)
      #expect(snapshot.sequence == 4)
      #expect(!snapshot.isResting)
    }
    #expect(MiddlewareHost<Op, Tally>.none.snapshot() == nil)
    #expect(MiddlewareHost<Op, Tally>.none.openLog {} == nil)
  }
}

/// The architecture's log of inputs (`MiddlewareHost.openLog(wake:)`, `MiddlewareLog`): every input
/// the middlewares see, in order, with the sequence of their records, taken in batches; states
/// only when asked for; one wake per batch.
@Suite(.checksResources)
struct MiddlewareLogTests {
  /// Opens the log when attached, if it can; keeps the records' inputs and sequences to compare.
  final class LogKeeper: Middleware, Sendable {
    let log = LockedValue<MiddlewareLog<Op, Tally>?>(nil)
    let host = LockedValue<MiddlewareHost<Op, Tally>?>(nil)
    let wakes = LockedValue(0)
    let processed = Journal<UInt64>()
    let inputs = Journal<Op>()
    /// The input at which `process` takes from the log, on the processing thread.
    let takesAt = LockedValue<Op?>(nil)
    /// What those takes took.
    let takenWhileProcessing = Journal<[Op]>()

    var interceptsInputs: Bool { false }

    func attached(to host: MiddlewareHost<Op, Tally>) {
      self.host.withLock { $0 = host }
      let wakes = wakes
      let log = host.openLog { wakes.withLock { $0 += 1 } }
      self.log.withLock { $0 = log }
    }

    func process(_ record: MiddlewareRecord<Op, Tally>) {
      processed.append(record.sequence)
      inputs.append(record.input)
      if record.input == takesAt.withLock({ $0 }), let opened {
        takenWhileProcessing.append(opened.take().entries.map(\.input))
      }
    }

    var opened: MiddlewareLog<Op, Tally>? { log.withLock { $0 } }
  }

  /// `arch` running with a `LogKeeper`, its middlewares attached, and the log the keeper opened.
  static func attached(
    _ arch: Arch
  ) throws -> (keeper: LogKeeper, running: Running, log: MiddlewareLog<Op, Tally>) {
    let keeper = LogKeeper()
    let running = Running.make(arch, middlewares: [keeper])
    // A reactor makes its engine, and attaches its middlewares, on first use.
    #expect(running.state() == Tally())
    return (keeper, running, try #require(keeper.opened))
  }

  /// Tells when it is let go of.
  final class Token: Sendable {
    let letGo: @Sendable () -> Void

    init(letGo: @escaping @Sendable () -> Void) {
      self.letGo = letGo
    }

    deinit {
      letGo()
    }
  }

  @Test(arguments: Arch.allCases)
  func whatIsGivenBackIsLetGoOfWhenTheProcessingThreadRunsOutOfWork(_ arch: Arch) throws {
    let keeper = LogKeeper()
    let running = Running.make(arch, middlewares: [keeper])
    running.send(.add(1))
    let log = try #require(keeper.opened)
    let batch = log.take()
    #expect(batch.entries.map(\.input) == [.add(1)])

    let letGo = LockedValue(false)
    log.giveBack(Token { letGo.withLock { $0 = true } })
    log.giveBack(batch.entries)
    #expect(!letGo.withLock { $0 }, "kept until the processing thread works again")
    // This suite's sends are processed on the sending thread: its work is done on return.
    running.send(.add(2))
    #expect(letGo.withLock { $0 }, "let go of as the processing thread ran out of work")
    #expect(log.take().entries.map(\.input) == [.add(2)], "the log goes on as before")
  }

  @Test(arguments: Arch.allCases)
  func entriesGivenBackAreWhereTheLogGathersAgain(_ arch: Arch) throws {
    let keeper = LogKeeper()
    let running = Running.make(arch, middlewares: [keeper])
    let ops = (0..<100).map { Op.add($0) }
    for op in ops { running.send(op) }
    let log = try #require(keeper.opened)
    // Not kept once given back, as a middleware does: held here, the array would be copied
    // when the processing thread next gathers into it.
    var first: [MiddlewareLogEntry<Op>]? = log.take().entries
    #expect(first?.map(\.input) == ops)
    // The array's identity, compared, never read through once given back.
    let array = first?.withUnsafeBufferPointer { $0.baseAddress }
    log.giveBack(first ?? [])
    first = nil
    // Emptied by the processing thread one give-back later (the middleware's thread may still
    // hold it on its way out of the first), put in place by the take after, swapped for the
    // array the processing thread gathers into as its next work ends, and handed over with
    // what it gathered at the end of the work after: taken by the fifth take.
    var arrays: [UnsafePointer<MiddlewareLogEntry<Op>>?] = []
    for next in 100..<105 {
      running.send(.add(next))
      let batch = log.take()
      #expect(batch.entries.map(\.input) == [.add(next)], "the log goes on as before")
      arrays.append(batch.entries.withUnsafeBufferPointer { $0.baseAddress })
      log.giveBack(batch.entries)
    }
    if arch == .reactor {
      // A reactor's log is its engine's seen through its mutations: each take's entries are
      // made anew, the engine's own given back at once.
      #expect(!arrays.contains(array))
    } else {
      #expect(arrays.contains(array), "gathered into the first take's array, emptied")
    }
  }

  @Test(arguments: Arch.allCases)
  func entriesMadeByALogsViewAreLetGoOfWhereTheyWereMade(_ arch: Arch) throws {
    let keeper = LogKeeper()
    let running = Running.make(arch, middlewares: [keeper])
    running.send(.add(1))
    let log = try #require(keeper.opened)
    var entries = log.take().entries
    // The array's identity, compared, never read through.
    let array = entries.withUnsafeBufferPointer { $0.baseAddress }
    log.giveBack(entries)
    // A write copies the array if the log still holds it.
    entries[0].sequence += 0
    let written = entries.withUnsafeBufferPointer { $0.baseAddress }
    if arch == .reactor {
      // A reactor's log is its engine's seen through its mutations: the entries taken were made
      // on this thread, and are let go of here, not handed to the processing thread.
      #expect(written == array, "let go of by the log at once")
    } else {
      #expect(written != array, "kept for the processing thread, to append into again")
    }
    running.send(.add(2))
    #expect(log.take().entries.map(\.input) == [.add(2)], "the log goes on as before")
  }

  @Test(arguments: Arch.allCases)
  func theLogHasEveryInputInOrderWithItsRecordsSequence(_ arch: Arch) throws {
    let keeper = LogKeeper()
    let running = Running.make(arch, middlewares: [keeper])
    let ops: [Op] = [.add(2), .multiply(5), .note("x"), .reset]
    for op in ops { running.send(op) }

    let log = try #require(keeper.opened)
    let batch = log.take()
    #expect(batch.entries.map(\.input) == ops)
    #expect(batch.entries.map(\.input) == keeper.inputs.values)
    #expect(batch.entries.map(\.sequence) == keeper.processed.values)
    #expect(batch.states.isEmpty, "no state unless asked for")
    if arch == .reactor {
      // A reactor's middlewares see each mutation as its action with the mutation.
      #expect(batch.entries.map { $0.mutation as? Op } == ops)
    } else {
      #expect(batch.entries.allSatisfy { $0.mutation == nil })
    }
    // One wake for the batch, none after; the first input after a take wakes again.
    #expect(keeper.wakes.withLock { $0 } == 1)
    #expect(log.take().entries.isEmpty)
    running.send(.add(1))
    running.send(.add(1))
    #expect(keeper.wakes.withLock { $0 } == 2)
    let next = log.take()
    #expect(next.entries.map(\.input) == [.add(1), .add(1)])
    #expect(next.entries.map(\.sequence) == Array(keeper.processed.values.suffix(2)))
  }

  @Test(arguments: Arch.allCases)
  func aTakeWhileTheArchitectureWorksLeavesTheRestForAWakeBeforeItRests(_ arch: Arch) throws {
    let (keeper, running, log) = try Self.attached(arch)
    running.send(.add(1))
    #expect(keeper.wakes.withLock { $0 } == 1)
    #expect(log.take().entries.map(\.input) == [.add(1)], "taken at rest: every input")

    keeper.takesAt.withLock { $0 = .note("take") }
    running.send(.note("take"))
    // Taken from `process`, while the architecture works: the inputs it handed to the log
    // (none since the last take), not those it gathers meanwhile.
    #expect(keeper.takenWhileProcessing.values == [[]])
    #expect(keeper.wakes.withLock { $0 } == 2, "woken for the rest before it rested")
    let snapshot = try #require(keeper.host.withLock { $0 }?.snapshot())
    #expect(snapshot.isResting)
    let rest = log.take()
    #expect(rest.entries.map(\.input) == [.note("take")])
    #expect(rest.entries.last?.sequence == snapshot.sequence, "every input up to the state")
    #expect(log.take().entries.isEmpty)
  }

  @Test(arguments: Arch.allCases)
  func capturedStatesAreTheStatesAfterTheirInputs(_ arch: Arch) throws {
    let (_, running, log) = try Self.attached(arch)
    log.captureStates(next: 2)
    for op in [Op.add(3), .multiply(4), .add(1)] { running.send(op) }

    let batch = log.take()
    #expect(batch.entries.count == 3)
    #expect(batch.states.map(\.sequence) == batch.entries.prefix(2).map(\.sequence))
    #expect(batch.states.map(\.state.value) == [3, 12])
    #expect(batch.states.map(\.state.steps) == [1, 2])

    // 0 stops; asked again, the next inputs have theirs.
    log.captureStates(next: 0)
    running.send(.add(1))
    #expect(log.take().states.isEmpty)
    log.captureStates(next: 5)
    running.send(.add(1))
    #expect(log.take().states.map(\.state.value) == [15])
  }

  @Test(arguments: Arch.allCases)
  func oneLogPerArchitectureAndOnlyWhileAttached(_ arch: Arch) throws {
    let first = LogKeeper()
    let second = LogKeeper()
    let running = Running.make(arch, middlewares: [first, second])
    running.send(.add(1))

    #expect(first.opened != nil)
    #expect(second.opened == nil, "the first middleware to ask has it")
    let host = try #require(first.host.withLock { $0 })
    #expect(host.openLog {} == nil, "not after attached(to:) returned")
    #expect(first.opened?.take().entries.map(\.input) == [.add(1)])
    // The second still sees every input through process(_:).
    #expect(second.inputs.values == [.add(1)])
  }

  /// Takes its inputs from the log only: once it has it, it says it no longer processes inputs,
  /// and counts the calls it gets all the same.
  final class LogOnly: Middleware, Sendable {
    let keeper = LogKeeper()
    let calls = LockedValue(0)

    var interceptsInputs: Bool { false }
    var processesInputs: Bool { keeper.opened == nil }

    func attached(to host: MiddlewareHost<Op, Tally>) { keeper.attached(to: host) }

    func process(_ record: MiddlewareRecord<Op, Tally>) { calls.withLock { $0 += 1 } }
  }

  @Test(arguments: Arch.allCases)
  func aMiddlewareWithTheLogThatNoLongerProcessesIsNotCalledPerInput(_ arch: Arch) throws {
    let logOnly = LogOnly()
    let running = Running.make(arch, middlewares: [logOnly])
    let ops: [Op] = [.add(2), .multiply(5), .note("x")]
    for op in ops { running.send(op) }

    let log = try #require(logOnly.keeper.opened)
    let batch = log.take()
    #expect(batch.entries.map(\.input) == ops, "every input in the log")
    #expect(logOnly.calls.withLock { $0 } == 0, "read after it was attached, with the log")
    #expect(running.state().value == 10)
  }

  @Test(arguments: Arch.allCases)
  func theOthersStillProcessEveryInput(_ arch: Arch) throws {
    let logOnly = LogOnly()
    let keeper = MiddlewareHostTests.Keeper()
    let running = Running.make(arch, middlewares: [logOnly, keeper])
    for op in [Op.add(2), .multiply(5)] { running.send(op) }

    #expect(keeper.sequences.values.count == 2)
    let entries = try #require(logOnly.keeper.opened).take().entries
    #expect(entries.map(\.sequence) == keeper.sequences.values, "the same inputs")
    // A reactor's middlewares sit on its store as one, whose own stack is made as they are
    // attached: it leaves the log-only one out too.
    #expect(logOnly.calls.withLock { $0 } == 0)
  }

  @Test func aStackMadeAttachingLeavesOutWhatNoLongerProcesses() throws {
    let log = MiddlewareLog<Op, Tally>(
      take: { MiddlewareLogBatch(entries: [], states: []) },
      captureStates: { _ in }
    )
    let host = MiddlewareHost<Op, Tally>(snapshot: { nil }, openLog: { _ in log })
    let record = MiddlewareRecord<Op, Tally>(
      input: .add(1),
      state: Tally(value: 1),
      sequence: 1,
      time: .zero,
      dispatcher: MiddlewareDispatcher { _ in }
    )

    let attachedFirst = LogOnly()
    let stack = MiddlewareStack<Op, Tally>(attaching: [attachedFirst], to: host)
    #expect(!stack.processesInputs)
    stack.process(record)
    #expect(attachedFirst.calls.withLock { $0 } == 0)

    // Made before it is attached, the stack reads that it processes, and calls it.
    let attachedAfter = LogOnly()
    let before = MiddlewareStack<Op, Tally>([attachedAfter])
    before.attach(to: host)
    #expect(before.processesInputs)
    before.process(record)
    #expect(attachedAfter.calls.withLock { $0 } == 1)
  }

  /// Sees only the notes: its log leaves out the inputs its pullback drops, with their states.
  final class NoteKeeper: Middleware, Sendable {
    let log = LockedValue<MiddlewareLog<String, [String]>?>(nil)
    var interceptsInputs: Bool { false }
    func attached(to host: MiddlewareHost<String, [String]>) {
      let log = host.openLog {}
      self.log.withLock { $0 = log }
    }
  }

  @Test(arguments: Arch.allCases)
  func aPulledBackLogHasOnlyTheInputsItsMiddlewareSees(_ arch: Arch) throws {
    let keeper = NoteKeeper()
    let lifted = keeper.pullback(
      state: \Tally.notes,
      input: { (op: Op) -> String? in
        guard case .note(let text) = op else { return nil }
        return text
      },
      embed: { Op.note($0) }
    )
    let running = Running.make(arch, middlewares: [lifted])
    #expect(running.state() == Tally())
    let log = try #require(keeper.log.withLock { $0 })
    log.captureStates(next: 10)
    for op in [Op.add(1), .note("a"), .add(2), .note("b")] { running.send(op) }

    let batch = log.take()
    #expect(batch.entries.map(\.input) == ["a", "b"])
    #expect(batch.states.map(\.state) == [["a"], ["a", "b"]])
    #expect(batch.states.map(\.sequence) == batch.entries.map(\.sequence))
  }
}

/// A log taken on a thread of its own while four threads send (run under TSan in CI): every
/// input exactly once, in the order of its sequence.
@Suite(.checksResources)
struct MiddlewareLogConcurrencyTests {
  @Test(arguments: Arch.allCases)
  func aLogTakenWhileFourThreadsSendHasEveryInputOnceInOrder(_ arch: Arch) async throws {
    let (keeper, running, log) = try MiddlewareLogTests.attached(arch)
    log.captureStates(next: 50)
    let perThread = 200
    let sendersDone = LockedValue(0)
    let taken = LockedValue<[MiddlewareLogEntry<Op>]>([])
    let states = LockedValue<[MiddlewareLoggedState<Tally>]>([])
    @Sendable func keep(_ batch: MiddlewareLogBatch<Op, Tally>) {
      taken.withLock { $0 += batch.entries }
      states.withLock { $0 += batch.states }
    }
    let finished = await runOnThreads(5) { thread in
      if thread < 4 {
        for _ in 0..<perThread { running.send(.add(1)) }
        sendersDone.withLock { $0 += 1 }
        return
      }
      // Takes until the senders are done: bounded by their work, not by a clock.
      while sendersDone.withLock({ $0 }) < 4 {
        keep(log.take())
        log.captureStates(next: 50)
      }
      keep(log.take())
    }
    #expect(finished)
    keep(log.take())
    let sequences = taken.withLock { $0 }.map(\.sequence)
    #expect(sequences == keeper.processed.values)
    #expect(Set(sequences).count == 4 * perThread)
    #expect(sequences == sequences.sorted())
    // Each captured state is the state after its input: as many steps as inputs up to it.
    let captured = states.withLock { $0 }
    #expect(!captured.isEmpty)
    for logged in captured {
      let position = try #require(sequences.firstIndex(of: logged.sequence))
      #expect(logged.state.steps == position + 1)
      #expect(logged.state.value == position + 1)
    }
  }
}

/// Snapshots read on other threads while four threads send inputs (run under TSan in CI): each
/// is a state between two reductions, whose count of steps is its sequence.
@Suite(.checksResources)
struct MiddlewareHostConcurrencyTests {
  @Test(arguments: Arch.allCases)
  func snapshotsReadWhileInputsAreReducedAreWholeStates(_ arch: Arch) async throws {
    let keeper = MiddlewareHostTests.Keeper()
    let running = Running.make(arch, middlewares: [keeper])
    // A reactor makes its engine on first use.
    #expect(running.state() == Tally())
    let host = try #require(keeper.hosts.values.first)
    let perThread = 200
    let checked = LockedValue(0)
    let torn = LockedValue<[String]>([])
    let finished = await runOnThreads(6) { thread in
      if thread < 4 {
        for _ in 0..<perThread { running.send(.add(1)) }
        return
      }
      for _ in 0..<perThread {
        guard let snapshot = host.snapshot() else { continue }
        if UInt64(snapshot.state.steps) != snapshot.sequence
          || snapshot.state.value != snapshot.state.steps
        {
          torn.withLock { $0.append("\(snapshot.sequence): \(snapshot.state)") }
        }
        checked.withLock { $0 += 1 }
      }
    }
    #expect(finished)
    #expect(torn.withLock { $0 } == [])
    let read = checked.withLock { $0 }
    #expect(read == 2 * perThread)
    let last = try #require(host.snapshot())
    #expect(last.sequence == UInt64(4 * perThread))
    #expect(last.state.value == 4 * perThread)
    #expect(last.isResting)
  }
}

/// The middleware contract's autosave example (CascadeStore's "Reading the state from a thread
/// of your own"), line for line: saved from another thread, the file holds the state.
@Suite(.checksResources)
struct MiddlewareHostArticleTests {
  enum EditorAction: Sendable {
    case type(String)
    case clear
  }

  struct Document: Codable, Sendable, Equatable {
    var text = ""
  }

  final class Autosave: Middleware, Sendable {
    typealias Input = EditorAction
    private let host = LockedValue<MiddlewareHost<EditorAction, Document>?>(nil)

    func attached(to host: MiddlewareHost<EditorAction, Document>) {
      self.host.withLock { $0 = host }
    }
    var interceptsInputs: Bool { false }

    /// On a timer of the app's, off the processing thread.
    func save(to file: URL) throws {
      guard let snapshot = host.withLock({ $0 })?.snapshot() else { return }  // gone
      try JSONEncoder().encode(snapshot.state).write(to: file)
    }
  }

  @Test func theAutosaveWritesTheStateFromAThreadOfItsOwn() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("document.json")
    let autosave = Autosave()
    let store = Store(initialState: Document(), middlewares: [autosave]) { document, action in
      switch action {
      case .type(let text): document.text += text
      case .clear: document.text = ""
      }
    }
    for action in [EditorAction.type("Hello"), .clear, .type("Hi, "), .type("there")] {
      store.send(action)
    }

    let saved = LockedValue<(any Error)?>(nil)
    let finished = await runOnThreads(1) { _ in
      do { try autosave.save(to: file) } catch { saved.withLock { $0 = error } }
    }
    #expect(finished)
    #expect(saved.withLock { $0 } == nil)
    let document = try JSONDecoder().decode(Document.self, from: Data(contentsOf: file))
    #expect(document == store.state)
    #expect(document.text == "Hi, there")
  }
}
