import CascadeStreams
import CascadeTestSupport
import Testing

@testable import CascadeStore

/// The store engine's shared state as a state machine, transition by transition, with no
/// threads: the processing token, the lifecycle (open → draining → closed), what closing hands
/// back, and when the store is at rest.
struct StoreEngineStateTests {
  typealias Engine = StoreEngine<Int, String>
  typealias Shared = Engine.Shared

  static func action(_ name: String) -> Engine.Work { .action(name, origin: nil) }

  static func name(of work: Engine.Work) -> String? {
    guard case .action(let name, _, _) = work else { return nil }
    return name
  }

  @Test func theTokenHolderTakesCommandInputsFirstThenGivesTheTokenUp() {
    var shared = Shared(state: 0)
    shared.token = .held
    shared.queue.append(Self.action("queued"))
    shared.commandQueue.append(Self.action("sent by a command"))
    #expect(shared.hasWork)
    #expect(Self.name(of: shared.takeNext()) == "sent by a command")
    #expect(Self.name(of: shared.takeNext()) == "queued")
    #expect(!shared.hasWork)
    #expect(shared.releaseToken() == nil)  // nobody to tell
    #expect(shared.token == .idle)
  }

  @Test func aSubmitterTakesTheTokenWhenIdleAndQueuesOtherwise() {
    var shared = Shared(state: 0)
    let first = shared.admit(Self.action("first"))
    #expect(first == .holdToken)
    #expect(shared.token == .held)
    #expect(shared.queue.isEmpty)  // the holder processes it itself
    let second = shared.admit(Self.action("second"))
    #expect(second == .queued)
    let tookWhileHeld = shared.takeTokenIfOpenAndIdle()
    #expect(!tookWhileHeld)  // someone is processing
    #expect(Self.name(of: shared.takeNext()) == "second")
    #expect(shared.releaseToken() == nil)
    let tookWhenIdle = shared.takeTokenIfOpenAndIdle()
    #expect(tookWhenIdle)
    #expect(shared.token == .held)
    _ = shared.releaseToken()
    shared.stopAccepting()
    let late = shared.admit(Self.action("late"))
    #expect(late == .refused)
    let tookWhileDraining = shared.takeTokenIfOpenAndIdle()
    #expect(!tookWhileDraining)  // draining: the general path drops it
    #expect(shared.token == .idle)
  }

  @Test func reentrantInputsOfACommandGoAheadOfTheRest() {
    var shared = Shared(state: 0)
    shared.token = .held
    let fromSubscriber = shared.admitReentrant(Self.action("from a subscriber"), fromCommand: false)
    let fromCommand = shared.admitReentrant(Self.action("from a command"), fromCommand: true)
    #expect(fromSubscriber && fromCommand)
    #expect(Self.name(of: shared.takeNext()) == "from a command")
    #expect(Self.name(of: shared.takeNext()) == "from a subscriber")
    _ = shared.close()
    let afterClose = shared.admitReentrant(Self.action("after close"), fromCommand: false)
    #expect(!afterClose)
  }

  @Test func whatIsAcceptedFollowsTheLifecycle() {
    var shared = Shared(state: 0)
    #expect(shared.accepts(Self.action("a")) && shared.accepts(.expireCommands))
    shared.stopAccepting()
    #expect(shared.lifecycle == .draining)
    #expect(!shared.accepts(Self.action("a")))
    #expect(shared.accepts(.expireCommands))
    _ = shared.close()
    #expect(shared.lifecycle == .closed)
    #expect(!shared.accepts(.expireCommands))
    shared.stopAccepting()
    #expect(shared.lifecycle == .closed)  // closed is final
  }

  @Test func closingEmptiesTheQueuesAndTellsDroppedWork() {
    var shared = Shared(state: 0)
    let dropped = Counter()
    shared.queue.append(.run({}, dropped: { dropped.increment() }))
    shared.commandQueue.append(Self.action("a"))
    shared.parked = []
    let closing = shared.close()
    #expect(closing.dropped.count == 1)
    for run in closing.dropped { run() }
    #expect(dropped.value == 1)
    #expect(shared.queue.isEmpty && shared.commandQueue.isEmpty)
    #expect(closing.tellNow)
  }

  // Closed while a thread processes: the subscriptions are told by that thread when it gives up
  // the token, not by `close()`, so that their last delivery and the end never overlap.
  @Test func closedWhileProcessingTheTokenHolderTellsTheSubscriptions() {
    var shared = Shared(state: 0)
    let box = SubscriptionBox<Int>(owner: nil, orphaned: nil, onClose: nil) { _, _, _ in }
    shared.subscriptions = [box]
    shared.token = .held
    shared.queue.append(Self.action("never processed"))
    let closing = shared.close()
    #expect(!closing.tellNow)
    #expect(closing.subscriptions.count == 1)
    #expect(!shared.hasWork)  // nothing is processed once closed
    let release = shared.releaseToken()
    #expect(release?.closedBoxes.count == 1 && release?.closedBoxes.first === box)
    #expect(shared.token == .idle)
  }

  // Closed by another thread while one processes: the closer waits for the holder, which wakes
  // it when it gives up the token, after telling the subscriptions (once, however many closers).
  @Test func aCloserWaitingForTheHolderIsWokenWhenItGivesUpTheToken() {
    var shared = Shared(state: 0)
    shared.token = .held
    _ = shared.close()
    let woken = Counter()
    shared.awaitHolder { woken.increment() }
    shared.awaitHolder { woken.increment() }
    #expect(woken.value == 0)
    let release = shared.releaseToken()
    for wake in release?.closers ?? [] { wake() }
    #expect(woken.value == 2)
    #expect(shared.releaseToken()?.closers.isEmpty ?? true)  // each closer is woken once
  }

  @Test func atRestOnlyWithNoWorkNoQueueAndNoOneProcessing() {
    var shared = Shared(state: 0)
    #expect(shared.isQuiescent)
    let effect = shared.effects.register(key: nil, stop: nil)
    #expect(!shared.isQuiescent)
    #expect(shared.takeWorkWaitersIfIdle().isEmpty)
    _ = shared.effects.end(effect.id)
    shared.queue.append(Self.action("a"))
    #expect(!shared.isQuiescent)
    _ = shared.queue.popFirst()
    shared.token = .held
    #expect(!shared.isQuiescent)
    shared.token = .idle
    #expect(shared.isQuiescent)
    _ = shared.effects.register(key: nil, stop: nil)
    _ = shared.close()
    #expect(shared.isQuiescent)  // a closed store is at rest
  }
}
