import CascadeStreams
import CascadeTestSupport
import Synchronization
import Testing

@testable import CascadeStore

/// The store engine's whole protocol as a state machine, transition by transition, with no
/// threads: the processing token and who holds it, reentrancy, the lifecycle (open → draining →
/// closed), replays, what closing hands back, and when the store is at rest; then every sequence
/// of events up to a length, against a model of what the protocol promises.
struct EngineStateMachineTests {
  typealias Machine = EngineStateMachine<Int, String>
  typealias Work = EngineWork<Int, String>

  static let a: UInt = 11
  static let b: UInt = 22
  static let queueThread: UInt = 33

  static func action(_ name: String) -> Work { .action(name, origin: nil) }

  /// `#expect` for conditions read off the machine: the macro cannot take a noncopyable value
  /// apart.
  static func expect(_ condition: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(condition, sourceLocation: sourceLocation)
  }

  static func name(of work: Work) -> String? {
    guard case .action(let name, _, _) = work else { return nil }
    return name
  }

  /// The next work item's name, or `nil` when the holder was told to give up the token.
  static func next(_ machine: inout Machine) -> String? {
    guard machine.hasWork else {
      _ = machine.releaseToken()
      return nil
    }
    return name(of: machine.takeNext())
  }

  @Test func aSubmitterTakesTheTokenWhenIdleAndQueuesOtherwise() {
    var machine = Machine(state: 0)
    Self.expect(machine.admit(Self.action("first"), by: Self.a, handOver: false) == .process)
    Self.expect(machine.token == .held(by: Self.a))
    Self.expect(machine.isHeld(by: Self.a) && !machine.isHeld(by: Self.b))
    Self.expect(machine.queue.isEmpty)  // the holder processes it itself
    Self.expect(machine.admit(Self.action("second"), by: Self.b, handOver: false) == .queued)
    Self.expect(!machine.takeTokenIfIdle(by: Self.b))  // someone is processing
    Self.expect(Self.next(&machine) == "second")
    Self.expect(Self.next(&machine) == nil)
    Self.expect(machine.token == .idle && !machine.isHeld(by: Self.a))
    Self.expect(machine.takeTokenIfIdle(by: Self.b))
    Self.expect(machine.isHeld(by: Self.b))
    _ = Self.next(&machine)
    machine.stopAccepting()
    Self.expect(machine.admit(Self.action("late"), by: Self.a, handOver: false) == .refused)
    Self.expect(!machine.takeTokenIfIdle(by: Self.a))  // draining: the general path drops it
    Self.expect(machine.token == .idle)
  }

  @Test func aStoreOnAQueueHandsTheTokenToItsJob() {
    var machine = Machine(state: 0)
    Self.expect(machine.admit(Self.action("first"), by: Self.a, handOver: true) == .handOver)
    Self.expect(machine.token == .held(by: 0))
    // The submitter does not process: a send of its is not reentrant.
    Self.expect(!machine.isHeld(by: Self.a))
    Self.expect(machine.admit(Self.action("second"), by: Self.b, handOver: true) == .queued)
    machine.beginHolding(on: Self.queueThread)
    Self.expect(machine.isHeld(by: Self.queueThread))
    Self.expect(Self.next(&machine) == "first")
    Self.expect(Self.next(&machine) == "second")
    Self.expect(Self.next(&machine) == nil)
    Self.expect(machine.token == .idle)
  }

  @Test func theHolderTakesACommandsInputsFirst() {
    var machine = Machine(state: 0)
    _ = machine.takeTokenIfIdle(by: Self.a)
    Self.expect(machine.admitReentrant(Self.action("from a subscriber")))
    machine.holder.collectingCommandInputs = true
    Self.expect(machine.admitReentrant(Self.action("from a command")))
    machine.holder.collectingCommandInputs = false
    Self.expect(Self.next(&machine) == "from a command")
    Self.expect(Self.next(&machine) == "from a subscriber")
    _ = machine.takeTokenIfIdle(by: Self.a)
    _ = machine.close(by: Self.a) { {} }
    Self.expect(!machine.admitReentrant(Self.action("after close")))
  }

  // An action the holder sends itself, with its effect's origin or none, waits in a lane of its
  // own (no work item is made of it), the rest of the queue in another: they leave in the order
  // they came in, across both, each action with its origin.
  @Test func plainActionsAndOtherWorkLeaveTheQueueInTheOrderTheyCameIn() {
    var machine = Machine(state: 0)
    _ = machine.takeTokenIfIdle(by: Self.a)
    var model: [String] = []
    let effect = EffectOrigin(id: 7)
    // A fixed pseudo-random walk over sends of each kind and takes, against an array.
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for step in 0..<2_000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      switch seed >> 62 {
      case 0:
        Self.expect(machine.admitReentrant(action: "plain \(step)"))
        model.append("plain \(step)")
      case 1:
        Self.expect(machine.admitReentrant(action: "effect's \(step)", origin: effect))
        model.append("effect's \(step)")
      case 2:
        // Marked, so not plain: a work item of the other lane.
        Self.expect(machine.admitReentrant(.action("marked \(step)", origin: nil, mark: 1)))
        model.append("marked \(step)")
      default:
        guard !model.isEmpty else { continue }
        Self.expect(machine.hasWork && machine.queue.count == model.count)
        let expected = model.removeFirst()
        // Taken as the engine's drain takes it: a plain action as itself, when it is next; half
        // the time through `takeNext()` regardless, which must agree.
        let hasOrigin = expected.hasPrefix("effect's")
        if step.isMultiple(of: 2), machine.nextIsPlainAction {
          let next = machine.takeNextAction()
          #expect(next.action == expected)
          #expect(next.origin === (hasOrigin ? effect : nil))
        } else {
          Self.expect(machine.nextIsPlainAction == !expected.hasPrefix("marked"))
          let work = machine.takeNext()
          #expect(Self.name(of: work) == expected)
          guard case .action(_, let origin, _) = work else { continue }
          #expect(origin === (hasOrigin ? effect : nil))
        }
      }
    }
    while let name = Self.next(&machine) { #expect(name == model.removeFirst()) }
    #expect(model.isEmpty)
  }

  @Test func aPlainActionIsAdmittedAsItsWorkItemWouldBe() {
    var machine = Machine(state: 0)
    _ = machine.takeTokenIfIdle(by: Self.a)
    machine.holder.collectingCommandInputs = true
    Self.expect(machine.admitReentrant(action: "from a command"))
    machine.holder.collectingCommandInputs = false
    Self.expect(machine.admitReentrant(action: "from a subscriber"))
    Self.expect(Self.next(&machine) == "from a command")
    Self.expect(Self.next(&machine) == "from a subscriber")
    machine.beginReplay()
    Self.expect(machine.admitReentrant(action: "during a replay"))  // handled: left out
    Self.expect(machine.queue.isEmpty)
    Self.expect(machine.endReplay() == (droppedInputs: 1, skippedEffects: 0))
    machine.stopAccepting()
    Self.expect(!machine.admitReentrant(action: "while draining"))
  }

  @Test func givingUpTheTokenResetsTheHoldersState() {
    var machine = Machine(state: 0)
    _ = machine.takeTokenIfIdle(by: Self.a)
    machine.holder.reduceWindowOpen = true
    machine.holder.replayInput = true
    Self.expect(Self.next(&machine) == nil)
    Self.expect(!machine.holder.reduceWindowOpen && !machine.holder.replayInput)
  }

  @Test func aReductionIsNumberedAndMarkedUnlessClosed() {
    var machine = Machine(state: 1)
    _ = machine.takeTokenIfIdle(by: Self.a)
    Self.expect(machine.beginReduction(describedAs: "double"))
    Self.expect(machine.holder.reducing && machine.current == "double")
    Self.expect(machine.endReduction() == 1 && !machine.holder.reducing)
    Self.expect(machine.beginReduction(describedAs: nil))
    Self.expect(machine.endReduction() == 2)
    _ = machine.close(by: Self.a) { {} }
    Self.expect(!machine.beginReduction(describedAs: nil))  // closed: the reducer does not run
    Self.expect(!machine.holder.reducing)
  }

  @Test func whatIsAcceptedFollowsTheLifecycle() {
    var machine = Machine(state: 0)
    Self.expect(machine.accepts(Self.action("a")) && machine.accepts(.expireCommands))
    machine.stopAccepting()
    Self.expect(machine.lifecycle == .draining)
    Self.expect(!machine.accepts(Self.action("a")))
    Self.expect(machine.accepts(.expireCommands))
    _ = machine.close(by: Self.a) { {} }
    Self.expect(machine.lifecycle == .closed)
    Self.expect(!machine.accepts(.expireCommands))
    machine.stopAccepting()
    Self.expect(machine.lifecycle == .closed)  // closed is final
  }

  @Test func aReplayAdmitsOnlyItsOwnInputsAndCountsTheRest() {
    var machine = Machine(state: 0)
    machine.beginReplay()
    let replayed = Work.action("replayed", origin: EffectOrigin(id: 0, isReplay: true))
    Self.expect(machine.admit(replayed, by: Self.a, handOver: false) == .process)
    Self.expect(!machine.takeTokenIfIdle(by: Self.b))  // a replay goes through the general path
    Self.expect(
      machine.admit(Self.action("from elsewhere"), by: Self.b, handOver: false) == .leftOutOfReplay
    )
    Self.expect(machine.startEffect(key: nil, stop: nil) == nil)  // no effect starts
    machine.beginReplay()
    Self.expect(machine.endReplay() == (droppedInputs: 1, skippedEffects: 1))
    // The last one to end resets the counts.
    Self.expect(machine.endReplay() == (droppedInputs: 1, skippedEffects: 1))
    machine.beginReplay()
    Self.expect(machine.endReplay() == (droppedInputs: 0, skippedEffects: 0))
  }

  @Test func closingEmptiesTheQueuesAndTellsDroppedWork() {
    var machine = Machine(state: 0)
    let dropped = Counter()
    machine.queue.append(.run({}, dropped: { dropped.increment() }))
    machine.commandQueue.append(Self.action("a"))
    let closing = machine.close(by: Self.a) { {} }
    #expect(closing.dropped.count == 1)
    for run in closing.dropped { run() }
    #expect(dropped.value == 1)
    Self.expect(machine.queue.isEmpty && machine.commandQueue.isEmpty)
    #expect(closing.tellNow && !closing.awaitsHolder)
  }

  // Closed while a thread processes: the subscriptions are told by that thread when it gives up
  // the token, not by `close()`, so that their last delivery and the end never overlap.
  @Test func closedWhileProcessingTheTokenHolderTellsTheSubscriptions() {
    var machine = Machine(state: 0)
    let box = SubscriptionBox<Int>(owner: nil, orphaned: nil, onClose: nil) { _, _, _ in }
    Self.expect(machine.attach(box).attached)
    _ = machine.takeTokenIfIdle(by: Self.a)
    machine.queue.append(Self.action("never processed"))
    let closing = machine.close(by: Self.a) { {} }
    #expect(!closing.tellNow && !closing.awaitsHolder)  // the holder itself closed
    #expect(closing.subscriptions.count == 1)
    Self.expect(!machine.hasWork)  // nothing is processed once closed
    guard let release = machine.releaseToken() else {
      Issue.record("the holder was not told to give up the token and tell the subscriptions")
      return
    }
    #expect(release.closedBoxes.count == 1 && release.closedBoxes.first === box)
    Self.expect(machine.token == .idle)
  }

  // Closed by another thread while one processes: the closer waits for the holder, which wakes
  // it when it gives up the token, after telling the subscriptions (once, however many closers).
  @Test func aCloserWaitingForTheHolderIsWokenWhenItGivesUpTheToken() {
    var machine = Machine(state: 0)
    _ = machine.takeTokenIfIdle(by: Self.a)
    let woken = Counter()
    Self.expect(machine.close(by: Self.b) { { woken.increment() } }.awaitsHolder)
    Self.expect(machine.close(by: Self.b) { { woken.increment() } }.awaitsHolder)
    #expect(woken.value == 0)
    Self.expect(!machine.hasWork)
    for wake in machine.releaseToken()?.closers ?? [] { wake() }
    #expect(woken.value == 2)
    _ = machine.takeTokenIfIdle(by: Self.a)  // refused: closed
    Self.expect(machine.token == .idle)
  }

  // A job handed to the store's queue that has not begun finds the store closed and does
  // nothing: the closer does not wait for it.
  @Test func aCloserDoesNotWaitForAQueueJobNotYetBegun() {
    var machine = Machine(state: 0)
    _ = machine.admit(Self.action("a"), by: Self.a, handOver: true)
    let closing = machine.close(by: Self.b) { {} }
    #expect(!closing.awaitsHolder && !closing.tellNow)
    machine.beginHolding(on: Self.queueThread)
    Self.expect(Self.next(&machine) == nil)
  }

  @Test func anEffectEndsOnceAndTheStoreRestsWhenNoneIsLeft() {
    var machine = Machine(state: 0)
    guard let (first, _) = machine.startEffect(key: nil, stop: nil),
      let (second, _) = machine.startEffect(key: nil, stop: nil)
    else {
      Issue.record("an open store did not start its effects")
      return
    }
    Self.expect(!machine.isQuiescent)
    Self.expect(machine.endEffect(first).ended)
    Self.expect(machine.endEffect(first).ended == false)  // once
    Self.expect(machine.endEffect(second).waiters.isEmpty)  // no one waited
    Self.expect(machine.isQuiescent)
  }

  @Test func atRestOnlyWithNoWorkNoQueueAndNoOneProcessing() {
    var machine = Machine(state: 0)
    Self.expect(machine.isQuiescent)
    machine.queue.append(Self.action("a"))
    Self.expect(!machine.isQuiescent)
    _ = machine.queue.popFirst()
    _ = machine.takeTokenIfIdle(by: Self.a)
    Self.expect(!machine.isQuiescent)
    _ = Self.next(&machine)
    Self.expect(machine.isQuiescent)
    _ = machine.startEffect(key: nil, stop: nil)
    Self.expect(!machine.isQuiescent)
    _ = machine.close(by: Self.a) { {} }
    Self.expect(machine.isQuiescent)  // a closed store is at rest
  }

  // MARK: - Every sequence of events

  /// What may happen to a store engine, as the engine calls the machine.
  enum Event: CaseIterable {
    /// A thread not holding the token sends an input (a, b) or hands it to the queue (q).
    case sendA, sendB, sendToQueue
    /// The fast path of an action sent on the caller's thread.
    case fastSendA
    /// The holder sends from its own processing (a subscriber), or a command it runs does.
    case reentrant, reentrantFromCommand
    /// The holder asks for the next item; the queue's job begins.
    case next, beginQueueJob
    case stopAccepting, closeByA, closeByB
    case beginReplay, endReplay
  }

  /// What the protocol promises, tracked beside the machine.
  struct Model {
    var accepted: [String] = []
    var processed: [String] = []
    var dropped: [String] = []
    var counter = 0
    var closed = false
    var draining = false
    var replays = 0
    var wakes = 0
    var closersWaiting = 0
    /// The queues as the protocol orders them.
    var queue: [String] = []
    var commandQueue: [String] = []
    /// The lines of the checks that failed.
    var failures: [Int] = []
  }

  /// Applies `event` if it can happen now; checks what the machine answered.
  static func apply(_ event: Event, to machine: inout Machine, _ model: inout Model) -> Bool {
    func check(_ condition: Bool, line: Int = #line) {
      if !condition { model.failures.append(line) }
    }
    func fresh() -> String {
      model.counter += 1
      return "i\(model.counter)"
    }
    let idle = machine.token == .idle
    let holderBegun: UInt? = {
      if case .held(let thread) = machine.token, thread != 0 { return thread }
      return nil
    }()
    switch event {
    case .sendA, .sendB, .sendToQueue:
      let thread = event == .sendB ? b : a
      guard !machine.isHeld(by: thread) else { return false }  // that is a reentrant send
      let input = fresh()
      let admission = machine.admit(action(input), by: thread, handOver: event == .sendToQueue)
      let mayAccept = !model.closed && !model.draining && model.replays == 0
      check((admission != .refused && admission != .leftOutOfReplay) == mayAccept)
      if admission == .leftOutOfReplay { check(model.replays > 0) }
      switch admission {
      case .process:
        check(idle && machine.token == .held(by: thread))
        model.accepted.append(input)
        model.processed.append(input)
      case .handOver:
        check(idle && machine.token == .held(by: 0))
        model.accepted.append(input)
        model.queue.append(input)
      case .queued:
        check(!idle)
        model.accepted.append(input)
        model.queue.append(input)
      case .refused, .leftOutOfReplay:
        break
      }
    case .fastSendA:
      guard !machine.isHeld(by: a) else { return false }
      let took = machine.takeTokenIfIdle(by: a)
      check(took == (idle && !model.closed && !model.draining && model.replays == 0))
      if took {
        let input = fresh()
        model.accepted.append(input)
        model.processed.append(input)
      }
    case .reentrant, .reentrantFromCommand:
      guard let holder = holderBegun, machine.isHeld(by: holder) else { return false }
      let input = fresh()
      machine.holder.collectingCommandInputs = event == .reentrantFromCommand
      let admitted = machine.admitReentrant(action(input))
      machine.holder.collectingCommandInputs = false
      check(admitted == (!model.closed && !model.draining))
      if admitted && model.replays == 0 {
        model.accepted.append(input)
        if event == .reentrantFromCommand {
          model.commandQueue.append(input)
        } else {
          model.queue.append(input)
        }
      }
    case .next:
      guard holderBegun != nil else { return false }
      if machine.hasWork {
        check(!model.closed)
        let input = name(of: machine.takeNext()) ?? "?"
        // A command's inputs first, then the rest, each in the order sent.
        if model.commandQueue.isEmpty {
          check(model.queue.first == input)
          if !model.queue.isEmpty { model.queue.removeFirst() }
        } else {
          check(model.commandQueue.removeFirst() == input)
        }
        model.processed.append(input)
      } else if let release = machine.releaseToken() {
        check(machine.token == .idle)
        model.wakes += release.closers.count
        model.closersWaiting = 0
      } else {
        check(machine.token == .idle && machine.holderThread.load(ordering: .relaxed) == 0)
        check(model.closersWaiting == 0)
      }
    case .beginQueueJob:
      guard machine.token == .held(by: 0) else { return false }
      machine.beginHolding(on: queueThread)
    case .stopAccepting:
      machine.stopAccepting()
      if !model.closed { model.draining = true }
    case .closeByA, .closeByB:
      let closer = event == .closeByA ? a : b
      let queued = machine.commandQueue.count + machine.queue.count
      let closing = machine.close(by: closer) { {} }
      let othersHold = holderBegun.map { $0 != closer } ?? false
      check(closing.awaitsHolder == othersHold)
      check(closing.tellNow == idle)
      if closing.awaitsHolder { model.closersWaiting += 1 }
      check(queued == model.queue.count + model.commandQueue.count)
      model.dropped += model.commandQueue + model.queue
      model.queue = []
      model.commandQueue = []
      model.closed = true
    case .beginReplay:
      machine.beginReplay()
      model.replays += 1
    case .endReplay:
      guard model.replays > 0 else { return false }
      _ = machine.endReplay()
      model.replays -= 1
    }
    // Invariants after every event.
    let published = machine.holderThread.load(ordering: .relaxed)
    switch machine.token {
    case .idle: check(published == 0)
    case .held(let thread): check(published == thread)
    }
    if model.closed { check(machine.queue.isEmpty && machine.commandQueue.isEmpty) }
    return true
  }

  /// Every sequence of 5 events (13⁵ = 371,293, those that can happen), then the holder drains:
  /// each accepted input is processed exactly once, in the order accepted (a command's inputs
  /// ahead of those queued before them), or dropped because the store closed; the token is
  /// published wherever it changes; a closer waits exactly when another thread is processing,
  /// and is woken when it gives up the token.
  @Test func everySequenceOfEventsKeepsTheProtocol() {
    let events = Event.allCases
    let length = 5
    var sequences = 0
    var failures: [String] = []
    var indices = Array(repeating: 0, count: length)
    while true {
      var machine = Machine(state: 0)
      var model = Model()
      var valid = true
      for index in indices where valid {
        valid = Self.apply(events[index], to: &machine, &model)
      }
      if valid {
        sequences += 1
        // Drain whatever is left, as the holder (or the queue's job) would.
        if machine.token == .held(by: 0) { machine.beginHolding(on: Self.queueThread) }
        while machine.token != .idle {
          _ = Self.apply(.next, to: &machine, &model)
        }
        let settled = model.processed.count + model.dropped.count
        if model.closersWaiting != 0 { model.failures.append(-1) }  // a closer never woken
        if settled != model.accepted.count { model.failures.append(-2) }  // lost, or twice
        if !model.closed
          && (Set(model.processed) != Set(model.accepted) || !machine.isQuiescent)
        {
          model.failures.append(-3)
        }
        if !model.failures.isEmpty && failures.count < 5 {
          failures.append("\(indices.map { events[$0] }): lines \(model.failures)")
        }
      }
      // The next sequence, in lexicographic order.
      var position = length - 1
      while position >= 0 {
        indices[position] += 1
        if indices[position] < events.count { break }
        indices[position] = 0
        position -= 1
      }
      if position < 0 { break }
    }
    #expect(failures.isEmpty, "\(failures)")
    #expect(sequences > 10_000)
  }
}
