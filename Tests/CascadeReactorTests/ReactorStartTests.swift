import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// A reactor starts on first use.
///
/// Inputs that arrive while it starts (from its `transform`
/// hooks as they are subscribed, from the hooks' own bodies, from another thread, from a nested
/// reactor that starts inside it) are queued and processed once it has started, in the order
/// they arrived; reads made while it starts never deadlock.
@Suite(.checksResources)
struct ReactorStartTests {
  /// A log reactor whose hooks are given by each test.
  final class LogReactor: Reactor {
    typealias Action = String
    typealias Mutation = String

    struct State: Sendable, Equatable {
      var log: [String] = []
    }

    let initialState = State()
    let runtime = ReactorRuntime<Action, Mutation, State>()
    let actionHook: @Sendable (LogReactor, Observable<Action, Never>) -> Observable<Action, Never>
    let mutationHook:
      @Sendable (LogReactor, Observable<Mutation, Never>) -> Observable<Mutation, Never>

    init(
      actions:
        @escaping @Sendable (LogReactor, Observable<Action, Never>) -> Observable<
          Action, Never
        > = { $1 },
      mutations:
        @escaping @Sendable (LogReactor, Observable<Mutation, Never>) -> Observable<
          Mutation, Never
        > = { $1 }
    ) {
      actionHook = actions
      mutationHook = mutations
    }

    var scheduler: any Scheduler { ImmediateScheduler.instance }

    func reduce(into state: inout State, mutation: Mutation) {
      state.log.append(mutation)
    }

    func transform(action: Observable<Action, Never>) -> Observable<Action, Never> {
      actionHook(self, action)
    }

    func transform(mutation: Observable<Mutation, Never>) -> Observable<Mutation, Never> {
      mutationHook(self, mutation)
    }
  }

  // Actions a `transform(action:)` emits as it is subscribed (`startWith`) are processed
  // once the reactor has started, before the action whose send started it.
  @Test func actionsEmittedOnSubscriptionAreProcessedFirst() {
    let reactor = LogReactor(actions: { _, actions in actions.startWith("first", "second") })
    reactor.send("sent")
    #expect(reactor.currentState.log == ["first", "second", "sent"])
  }

  // The same when the first use is a read: the emitted actions are applied before it answers.
  @Test func aReadThatStartsTheReactorSeesTheActionsEmittedOnSubscription() {
    let reactor = LogReactor(actions: { _, actions in actions.startWith("first") })
    #expect(reactor.currentState.log == ["first"])
    let states = Recorder<[String]>()
    let subscription = reactor.state.subscribe(onNext: { states.append($0.log) })
    #expect(states.values == [["first"]])
    subscription.dispose()
  }

  // A hot subject with a current value, merged into the actions, and a mutation stream that
  // starts with a value: both are applied on start.
  @Test func hotSubjectsMergedIntoTheHooksAreAppliedOnStart() {
    let global = BehaviorSubject<String, Never>("global")
    let reactor = LogReactor(
      actions: { _, actions in Observable.merge(actions, global.asObservable()) },
      mutations: { _, mutations in mutations.startWith("mutation on start") }
    )
    reactor.send("sent")
    #expect(reactor.currentState.log == ["mutation on start", "global", "sent"])
    global.onNext("later")
    #expect(reactor.currentState.log.last == "later")
  }

  // AT-04: a hook's body that sends to its own reactor (a recursive send), and reads its state,
  // while the reactor is being built: the send is queued until the reactor has started (after
  // the send that started it), the read answers the initial state, and nothing deadlocks.
  @Test func aHookBodyThatSendsAndReadsWhileTheReactorIsBuilt() {
    let readInHook = Watched<[String]?>(nil)
    let reactor = LogReactor(actions: { reactor, actions in
      readInHook.set(reactor.currentState.log)
      reactor.send("from the hook")
      return actions
    })
    reactor.send("sent")
    #expect(readInHook.value == [])
    #expect(reactor.currentState.log == ["sent", "from the hook"])
  }

  // A hook's body that subscribes to its own state stream while the reactor is being built gets
  // the state once the reactor has started.
  @Test func aHookBodyThatSubscribesToItsOwnState() {
    let seen = Recorder<[String]>()
    let subscriptions = CompositeDisposable()
    let reactor = LogReactor(actions: { reactor, actions in
      _ = subscriptions.insert(reactor.state.subscribe(onNext: { seen.append($0.log) }))
      return actions
    })
    reactor.send("sent")
    #expect(seen.values.last == ["sent"])
    subscriptions.dispose()
  }

  // A nested reactor that starts inside its parent's start and sends to the parent from its own
  // hook: the parent processes that input once it has started.
  @Test func aNestedReactorThatSendsToItsParentWhileBothStart() {
    let parentBox = LockedBox<LogReactor?>(nil)
    let child = LogReactor(actions: { _, actions in
      parentBox.value?.send("child started")
      return actions.startWith("child's first")
    })
    let parent = LogReactor(mutations: { _, mutations in
      Observable.merge(
        mutations,
        child.state.map { "child: \($0.log.joined(separator: ","))" }.asObservable()
      )
    })
    parentBox.value = parent
    parent.send("sent")
    #expect(child.currentState.log == ["child's first"])
    #expect(
      parent.currentState.log == ["child: child's first", "sent", "child started"]
    )
    parentBox.value = nil
  }
}

/// A reactor's start raced by threads: run under ThreadSanitizer in CI (the suite's name ends in
/// ConcurrencyTests).
@Suite(.checksResources)
struct ReactorStartConcurrencyTests {
  typealias LogReactor = ReactorStartTests.LogReactor

  /// A `BaseReactor` subclass, which restates `@unchecked Sendable` as every subclass must: it
  /// adds only an immutable property, and its state lives in the runtime.
  final class Tally: BaseReactor<Int, Int, Int>, @unchecked Sendable {
    // Safety: restated from BaseReactor; `step` is immutable.
    let step: Int

    init(step: Int) {
      self.step = step
      super.init(initialState: 0)
    }

    override var scheduler: any Scheduler { ImmediateScheduler.instance }

    override func reduce(into state: inout Int, mutation: Int) { state += mutation * step }
  }

  // AT-10: a BaseReactor subclass started and driven by racing threads (under ThreadSanitizer
  // in CI): every action applied exactly once.
  @Test func aBaseReactorSubclassRacedByThreads() async {
    for _ in 0..<20 {
      let reactor = Tally(step: 2)
      let finished = await runOnThreads(4) { _ in
        for _ in 0..<50 { reactor.send(1) }
      }
      #expect(finished)
      await reactor.settle()
      #expect(reactor.currentState == 400)
    }
  }

  // AT-10, AT-11: many threads that race to be the first user of a reactor: it starts once, and
  // every action of every thread is applied exactly once, each thread's in its order.
  @Test(arguments: [false, true])
  func threadsRacingToStartTheReactor(throughHook: Bool) async {
    for _ in 0..<50 {
      let reactor =
        throughHook
        ? LogReactor(actions: { _, actions in actions.startWith("start") })
        : LogReactor()
      let finished = await runOnThreads(4) { thread in
        for index in 0..<20 { reactor.send("\(thread).\(index)") }
      }
      #expect(finished)
      await reactor.settle()
      let log = reactor.currentState.log
      #expect(log.count == 80 + (throughHook ? 1 : 0))
      if throughHook { #expect(log.first == "start") }
      for thread in 0..<4 {
        let mine = log.filter { $0.hasPrefix("\(thread).") }
        #expect(mine == (0..<20).map { "\(thread).\($0)" })
      }
    }
  }

  // Threads that read while another thread's start is running its hooks wait for it, and then
  // see the reactor started.
  @Test func readsFromOtherThreadsWaitForTheStart() async {
    let inHook = Signal()
    let release = Signal()
    let reactor = LogReactor(actions: { _, actions in
      inHook.fire()
      _ = release.waitBlocking()
      return actions.startWith("start")
    })
    let starter = Task { await onOwnThread { reactor.send("sent") } }
    #expect(await inHook.wait())
    let reader = Task { await onOwnThread { reactor.currentState.log } }
    release.fire()
    await starter.value
    // The reader waited until the start was over, queued actions included.
    #expect(await reader.value == ["start", "sent"])
    #expect(reactor.currentState.log == ["start", "sent"])
  }
}
