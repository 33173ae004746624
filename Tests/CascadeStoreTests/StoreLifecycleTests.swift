import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct StoreLifecycleTests {
  // AT-31 and AT-39: releasing the store ends a never-ending command and a stream-driven one
  // (their cancel handlers run), and weak probes to the store and its subscriptions are nil.
  @Test func releasingTheStoreCancelsCommandsAndLeaksNothing() async {
    let cancelled = Counter()
    let started = Counter()
    let subject = PublishSubject<Int, Never>()
    var store: Store<Int, Int>? = Store(initialState: 0) { count, amount in count += amount }
    weak let weakStore = store
    store?.run("forever") { _, _ in
      await withTaskCancellationHandler {
        started.increment()
        while !Task.isCancelled { await Task.yield() }
      } onCancel: {
        cancelled.increment()
      }
    }
    store?.run("stream") { _, store in
      await withTaskCancellationHandler {
        started.increment()
        for await value in subject.values { store.send(value) }
      } onCancel: {
        cancelled.increment()
      }
    }
    let subscription = store?.subscribe(on: .synchronous) { _ in }
    let probe = store!
    // Both commands are running when the store goes away, not merely registered.
    #expect(await started.wait(forAtLeast: 2))
    #expect(probe.effectsInFlight == 2)
    _ = consume probe
    store = nil
    #expect(weakStore == nil)
    // Both commands are inside their cancellation handlers' scope (they started), so the
    // handlers ran within `Task.cancel()`, which releasing the store called.
    #expect(cancelled.value == 2)
    subscription?.dispose()
  }

  // AT-39: a store with a middleware, three selector subscriptions, a completed command and a
  // command cancelled at teardown leaves no cycle: the store, its state stream subscription and
  // the command handles are all released (the suite's resource check covers every box).
  @Test func noRetainCycles() async {
    struct Noting: Middleware {
      func process(event: Int, state: Int) {}
    }
    var store: Store<Int, Int>? = Store(initialState: 0, middlewares: [Noting()]) {
      count,
      amount in count += amount
    }
    weak let weakStore = store
    let subscriptions = (0..<3).map { index in
      store!.subscribe(select: { $0 + index }, on: .synchronous) { _ in }
    }
    let stream = store!.states.subscribe(onNext: { _ in })
    store!.run("completes") { _, store in store.send(1) }
    // The completed command has ended (the one below, which never ends, is started after, so
    // that `finish` has nothing to wait for that does not end).
    await store!.finish()
    let sleeping = Signal()
    store!.run("cancelled at teardown") { _, _ in
      sleeping.fire()
      try await suspendUntilCancelled()
    }
    let probe = store!
    #expect(await sleeping.wait())
    #expect(probe.effectsInFlight == 1 && probe.state == 1)
    _ = consume probe
    store = nil
    #expect(weakStore == nil)
    for subscription in subscriptions { subscription.dispose() }
    stream.dispose()
  }

  // AT-32: an input sent by a command after the store is gone is dropped, with a diagnostic
  // naming the input and the command — also when the handle escaped the command and is used
  // after the command ended, outside its task.
  @Test func lateInputIsDroppedAndNamed() async throws {
    let diagnostics = Recorder<String>()
    let scheduler = TestScheduler()
    var store: Store<[String], String>? = Store(
      initialState: [],
      scheduler: scheduler,
      diagnostics: { diagnostics.append($0.description) }
    ) { log, action in log.append(action) }
    let escaped = Watched<Store<[String], String>?>(nil)
    store?.run("Escaper") { _, store in escaped.set(store) }
    #expect(await escaped.wait { $0 != nil })
    store = nil
    escaped.value?.send("late")
    let dropped = "Input late arrived after the store stopped accepting inputs and was dropped"
    #expect(diagnostics.values == [dropped + #" (sent by effect "Escaper")"#])
    escaped.set(nil)
  }

  // AT-32, from inside the command's task: what it sends after the store is gone through its
  // handle, from its own task or a task it made, is dropped with a diagnostic naming the command
  // (the handle's origin, whether or not the command suspended before).
  @Test func lateInputFromACommandsTaskNamesTheCommand() async throws {
    let diagnostics = Recorder<String>()
    var store: Store<[String], String>? = Store(
      initialState: [],
      diagnostics: { diagnostics.append($0.description) }
    ) { log, action in log.append(action) }
    let released = Watched(false)
    store?.run("Latecomer") { _, store in
      _ = await released.wait { $0 }
      store.send("late")
      await Task { store.send("later") }.value
    }
    store = nil
    released.set(true)
    #expect(await diagnostics.wait(forCount: 2))
    let dropped = "arrived after the store stopped accepting inputs and was dropped"
    #expect(
      diagnostics.values == [
        "Input late \(dropped) (sent by effect \"Latecomer\")",
        "Input later \(dropped) (sent by effect \"Latecomer\")",
      ]
    )
  }

  // AT-34: a command that sends one action and then throws: the action is applied, later
  // actions are processed, and the error is surfaced.
  @Test func failingCommandDoesNotKillTheStore() async {
    struct Boom: Error {}
    let diagnostics = Recorder<String>()
    let store = Store<[String], String>(
      initialState: [],
      diagnostics: { diagnostics.append($0.description) }
    ) { log, action in log.append(action) }
    store.run("Failing") { _, store in
      store.send("before failure")
      throw Boom()
    }
    // The command has ended (its failure reported) and its input is reduced.
    await store.finish()
    #expect(store.effectsInFlight == 0)
    store.send("after")
    #expect(store.state == ["before failure", "after"])
    #expect(diagnostics.values == [#"Effect "Failing" failed: Boom()"#])
  }

  // AT-35: cancellation is not failure: a cancelled command reports nothing.
  @Test func cancellationIsNotFailure() async throws {
    let diagnostics = Recorder<String>()
    let scheduler = TestScheduler()
    let store = Store<[String], String>(
      initialState: [],
      scheduler: scheduler,
      diagnostics: { diagnostics.append($0.description) }
    ) { log, action in log.append(action) }
    store.run("Sleeper", id: 1) { _, store in
      do {
        try await scheduler.sleep(for: .seconds(10))
      } catch {
        store.send("error handler ran")
        throw error
      }
    }
    try await scheduler.waitForPendingItems(1)
    store.cancel(id: 1)
    // The cancelled command has ended, and its error handler's input was dropped with it.
    await store.finish()
    #expect(store.effectsInFlight == 0)
    #expect(store.state == [])
    #expect(diagnostics.values == [])
  }

  // Graceful shutdown: commands finish (their inputs still processed), then nothing more is
  // accepted or delivered.
  @Test @MainActor func shutdownLettingCommandsFinish() async {
    let store = Store<[String], String>(
      initialState: [],
      diagnostics: { _ in }
    ) { log, action in log.append(action) }
    let delivered = Recorder<[String]>()
    let subscription = store.subscribe(on: .synchronous) { delivered.append($0) }
    let release = Signal()
    store.run { _, store in
      _ = await release.wait()
      store.send("from command")
    }
    // The command is held until this main-actor job runs, which is once the test gives up the
    // main actor: inside `shutdown`, which (nonisolated(nonsending), like everything it calls
    // up to its first suspension) has then taken the command in flight and waits for it.
    Task { @MainActor in release.fire() }
    await store.shutdown(cancellingCommands: false)
    #expect(release.hasFired)
    #expect(store.state == ["from command"])
    #expect(store.isShutDown)
    store.send("after shutdown")
    #expect(store.state == ["from command"])
    #expect(delivered.values == [[], ["from command"]])
    subscription.dispose()
  }

  @Test func shutdownCancellingCommands() async {
    let store = Store<[String], String>(
      initialState: [],
      diagnostics: { _ in }
    ) { log, action in log.append(action) }
    let cancelled = Counter()
    let started = Signal()
    store.run { _, store in
      await withTaskCancellationHandler {
        started.fire()
        try? await suspendUntilCancelled()
      } onCancel: {
        cancelled.increment()
      }
      store.send("too late")
    }
    #expect(await started.wait())
    #expect(store.effectsInFlight == 1)
    await store.shutdown()
    #expect(cancelled.value == 1)
    #expect(store.state == [])
    #expect(store.effectsInFlight == 0)
  }

  // The states stream completes when the store shuts down.
  @Test func statesCompleteOnShutdown() async {
    let store = Store<Int, Int>(initialState: 0) { count, amount in count += amount }
    let subscribed = Signal()
    let task = Task {
      var seen: [Int] = []
      for await value in store.states.do(onSubscribed: { subscribed.fire() }).values {
        seen.append(value)
      }
      return seen
    }
    #expect(await subscribed.wait())
    await store.settle()
    #expect(store.subscriptionCount == 1)
    store.send(1)
    await store.shutdown()
    #expect(await task.value == [0, 1])
  }
}
