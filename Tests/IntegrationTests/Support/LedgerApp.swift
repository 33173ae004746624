import CascadeFeedback
import CascadeMiddleware
import CascadeReactor
import CascadeStore
import CascadeStreams

/// How a ledger app is built: the hooks the integration suites need, the same on every
/// architecture.
struct LedgerOptions: Sendable {
  /// How many producers the ledger tracks.
  var producers = 1
  /// Whether states are delivered where the architecture delivers by default (the main queue);
  /// otherwise synchronously, on the thread that reduced them.
  var mainDelivery = false
  /// Measures the reducer's nesting (serialization, and no recursion).
  var reducerGauge: DepthGauge?
  /// Called inside the reducer with each input and a way to send into the app.
  var reduceHook: (@Sendable (LedgerInput, Inbox) -> Void)?
  /// Middlewares that see every input.
  var middlewares: [any Middleware<LedgerInput, Ledger>] = []
  /// An effect started synchronously by each chain step, which sends the chain's next steps:
  /// a store's command, a reactor's mutation stream, a loop's effect.
  var chainEffect: (limit: Int, gauge: DepthGauge)?
  /// Work in flight started by `startWork`, observed by the probe.
  var work: WorkProbe?
  /// Where the architecture's diagnostics go (late sends after teardown).
  var diagnostics: (@Sendable (StoreDiagnostic) -> Void)?
}

/// A tiny ledger app on one of the three architectures, driven the same way on each.
///
/// The app owns the store, reactor or loop; releasing the app releases it.
final class LedgerApp: Sendable {
  let architecture: Architecture
  /// The store, reactor or loop, for weak probes.
  let object: any AnyObject & Sendable
  private let sendInput: @Sendable (LedgerInput) -> Void
  private let readState: @Sendable () -> Ledger
  private let subscribeStates: @Sendable (@escaping @Sendable (Ledger) -> Void) -> any Disposable
  private let startChainEffect: @Sendable () -> Void
  private let startWorkOf: @Sendable (LedgerInput.WorkKind) -> Void

  init(_ architecture: Architecture, options: LedgerOptions = LedgerOptions()) {
    self.architecture = architecture
    let inbox = Inbox()
    let reduce = Self.reducer(options, inbox)
    switch architecture {
    case .store:
      let store = Store<Ledger, LedgerInput>(
        initialState: Ledger(producers: options.producers),
        middlewares: options.middlewares,
        diagnostics: options.diagnostics,
        reducer: reduce
      )
      inbox.connect { [weak store] in store?.send($0) }
      object = store
      sendInput = { store.send($0) }
      readState = { store.state }
      if options.mainDelivery {
        subscribeStates = { handler in store.subscribe(handler) }  // the default: the main queue
      } else {
        subscribeStates = { handler in store.subscribe(on: .synchronous, handler) }
      }
      startChainEffect = {
        guard let (limit, gauge) = options.chainEffect else { return }
        store.fire(command: ChainCommand(step: 0, limit: limit, gauge: gauge))
      }
      startWorkOf = { kind in
        guard let probe = options.work else { return }
        store.send(.startWork(kind))
        let hold = probe.hold()
        switch kind {
        case .task:
          store.run("ticker") { _, store in
            hold.keep()
            probe.escape { store.send($0) }
            await Self.tick(probe) { store.send($0) }
          }
        case .stream:
          store.run("timer") { _, store in
            hold.keep()
            for await tick in Self.timer(probe).values { store.send(tick) }
          }
        }
      }
    case .reactor:
      let reactor = LedgerReactor(options: options, inbox: inbox, reduce: reduce)
      inbox.connect { [weak reactor] in reactor?.send($0) }
      object = reactor
      sendInput = { reactor.send($0) }
      readState = { reactor.currentState }
      subscribeStates = { handler in reactor.state.subscribe(onNext: handler) }
      startChainEffect = {}  // started by `mutate` for each chain step
      startWorkOf = { kind in reactor.send(.startWork(kind)) }
    case .feedback:
      var feedbacks: [Feedback<Ledger, LedgerInput>] = []
      if let (limit, gauge) = options.chainEffect {
        // An effect started synchronously while the state with a new chain step is delivered.
        feedbacks.append(
          Feedback(skippingRepeated: { $0.log.last }) { step in
            Self.chainStream(after: .chain(step), limit: limit, gauge: gauge) { $0 }
          }
        )
      }
      if let probe = options.work {
        let hold = probe.hold()
        feedbacks.append(
          Feedback(predicate: { $0.runsTask }) { _, send in
            hold.keep()
            probe.escape { send($0) }
            await Self.tick(probe) { send($0) }
          }
        )
        feedbacks.append(
          Feedback(predicate: { $0.runsStream }) { _ in
            Self.timer(probe)
          }
        )
      }
      let loop =
        options.mainDelivery
        ? FeedbackLoop(
          initialState: Ledger(producers: options.producers),
          reduceInPlace: reduce,
          feedbacks: feedbacks,
          middlewares: options.middlewares,
          diagnostics: options.diagnostics
        )
        : FeedbackLoop(
          initialState: Ledger(producers: options.producers),
          reduceInPlace: reduce,
          feedbacks: feedbacks,
          scheduler: ImmediateScheduler.instance,
          middlewares: options.middlewares,
          diagnostics: options.diagnostics
        )
      inbox.connect { [weak loop] in loop?.send($0) }
      object = loop
      sendInput = { loop.send($0) }
      readState = { loop.currentState }
      subscribeStates = { handler in loop.states.subscribe(onNext: handler) }
      startChainEffect = {}  // started by a feedback for each chain step
      startWorkOf = { kind in loop.send(.startWork(kind)) }
    }
  }

  /// Sends an input, from any thread.
  func send(_ input: LedgerInput) { sendInput(input) }

  /// The current state.
  var state: Ledger { readState() }

  /// Subscribes to the states: the current one, then every new one.
  func subscribe(_ handler: @escaping @Sendable (Ledger) -> Void) -> any Disposable {
    subscribeStates(handler)
  }

  /// Starts a reentrancy chain: sends step 0 (and, for a store with a chain effect, fires the
  /// first chain command).
  func startChain() {
    send(.chain(0))
    startChainEffect()
  }

  /// Starts work in flight of `kind`, observed by the options' probe.
  func startWork(_ kind: LedgerInput.WorkKind) { startWorkOf(kind) }

  /// The reducer every architecture runs: apply the input, then the hook.
  static func reducer(
    _ options: LedgerOptions,
    _ inbox: Inbox
  ) -> @Sendable (inout Ledger, LedgerInput) -> Void {
    let gauge = options.reducerGauge
    let hook = options.reduceHook
    return { state, input in
      gauge?.enter()
      defer { gauge?.exit() }
      state.apply(input)
      hook?(input, inbox)
    }
  }

  /// A stream that, when subscribed, sends the chain steps after `input` through `send` (or
  /// emits them, if `send` returns them), measured by `gauge`, and completes.
  static func chainStream<Element: Sendable>(
    after input: LedgerInput,
    limit: Int,
    gauge: DepthGauge,
    emitting transform: @escaping @Sendable (LedgerInput) -> Element?
  ) -> Observable<Element, Never> {
    Observable<Element, Never>.create { observer in
      gauge.measure {
        for next in Chain.follow(input, limit: limit) {
          if let element = transform(next) { observer.onNext(element) }
        }
      }
      observer.onCompleted()
      return Disposables.create()
    }
  }

  /// Ticks every few microseconds until the task is cancelled; the probe sees the start and the
  /// end.
  ///
  /// The end is counted when the loop sees the cancellation and stops, which is what proves the
  /// architecture cancelled the task. The cancel handler only logs (`~task`): the runtime may
  /// skip it when the task is cancelled at the very moment the handler is installed (TSan runs
  /// of the teardown test showed a cancelled task whose handler never ran).
  ///
  /// Not in a tight loop: with the sending-thread isolation, the thread that processes drains
  /// what others queue meanwhile, and producers that never pause would keep it draining (and
  /// holding what it sent through) forever. A tick every 500 µs, not 50: a debug build under
  /// TSan processes a reactor's input in about as long as 50 µs, and the teardown test's thread
  /// that drained never got back out (CI, once).
  static func tick(_ probe: WorkProbe, send: @Sendable (LedgerInput) -> Void) async {
    probe.start(.task)
    await withTaskCancellationHandler {
      while !Task.isCancelled {
        send(.tick)
        try? await Task.sleep(for: .microseconds(500))
      }
    } onCancel: {
      probe.note("~task")
    }
    probe.end(.task)
  }

  /// Ticks every millisecond on the probe's concurrent background queue; the probe sees the
  /// subscription and the disposal.
  ///
  /// Started when subscribed, not when made: an app that closes between making the stream and
  /// subscribing to it never subscribes (the work never starts, and has nothing to end).
  static func timer(_ probe: WorkProbe) -> Observable<LedgerInput, Never> {
    let scheduler = ConcurrentDispatchQueueScheduler(queue: probe.timerQueue)
    return Observable<Int, Never>.interval(.milliseconds(1), scheduler: scheduler)
      .map { _ in LedgerInput.tick }
      .do(onSubscribe: { probe.start(.stream) }, onDispose: { probe.end(.stream) })
      .asObservable()
  }
}

/// A store's chain effect: a command, started synchronously (it runs on the processing thread,
/// in order with the inputs), that sends the chain's next steps and fires the next command.
struct ChainCommand: Command {
  let step: Int
  let limit: Int
  let gauge: DepthGauge

  func execute(state: Ledger, core: Store<Ledger, LedgerInput>) {
    gauge.measure {
      // Fired first: were it executed at once (recursively), its steps would come before ours.
      if step + 1 < limit {
        core.fire(command: ChainCommand(step: step + 1, limit: limit, gauge: gauge))
      }
      for next in Chain.follow(.chain(step), limit: limit) { core.send(next) }
    }
  }
}

/// The ledger as a reactor: actions are mutations, except where an effect starts.
final class LedgerReactor: Reactor {
  typealias Action = LedgerInput
  typealias Mutation = LedgerInput

  let runtime = ReactorRuntime<LedgerInput, LedgerInput, Ledger>()
  let options: LedgerOptions
  let inbox: Inbox
  let reduceInput: @Sendable (inout Ledger, LedgerInput) -> Void

  init(
    options: LedgerOptions,
    inbox: Inbox,
    reduce: @escaping @Sendable (inout Ledger, LedgerInput) -> Void
  ) {
    self.options = options
    self.inbox = inbox
    reduceInput = reduce
  }

  var initialState: Ledger { Ledger(producers: options.producers) }

  /// The main queue (the protocol's default) or, for tests of synchronous delivery, the thread
  /// that reduced the state.
  var scheduler: any Scheduler {
    options.mainDelivery ? MainScheduler() : ImmediateScheduler.instance
  }

  var middlewares: [any Middleware<LedgerInput, Ledger>] { options.middlewares }

  var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? { options.diagnostics }

  func mutate(action: LedgerInput) -> Mutations<LedgerInput> {
    switch action {
    case .chain:
      guard let (limit, gauge) = options.chainEffect else { return [action] }
      // A mutation stream subscribed while the action is processed, which sends the next steps
      // as actions into this reactor and emits no mutation.
      let inbox = inbox
      let effect = LedgerApp.chainStream(after: action, limit: limit, gauge: gauge) { next in
        inbox.send(next)
        return LedgerInput?.none
      }
      return Mutations(sync: action, async: effect)
    case .startWork(.task):
      guard let probe = options.work else { return [action] }
      let hold = probe.hold()
      var mutations = Mutations<LedgerInput>.run { send in
        hold.keep()
        probe.escape { send($0) }
        await LedgerApp.tick(probe) { send($0) }
      }
      mutations.sync = [action]
      return mutations
    case .startWork(.stream):
      guard let probe = options.work else { return [action] }
      return Mutations(sync: action, async: LedgerApp.timer(probe))
    default:
      return [action]
    }
  }

  func reduce(into state: inout Ledger, mutation: LedgerInput) {
    reduceInput(&state, mutation)
  }
}
