import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Testing

@Suite(.checksResources)
struct ResourceLeakCheckTests {
  // AT-40: the counter instrumentation is compiled in. A live subscription raises the count of
  // the account it was made under (and the process total), and disposing it brings the count
  // back; if the instrumentation were missing or compiled out, this test fails.
  @Test func subscriptionsAreCounted() {
    let account = ResourceAccount()
    account.withCurrent {
      let subscription = Observable<Int, Never>.never().subscribe(onNext: { _ in })
      #expect(account.live == 1)
      #expect(Resources.total >= 1)
      subscription.dispose()
      #expect(account.live == 0)

      let created = Observable<Int, Never>.create { _ in Disposables.empty }.subscribe { _ in }
      #expect(account.live == 2)  // the subscription and the create sink
      created.dispose()
      #expect(account.live == 0)
    }
  }

  // AT-40: scheduled items and sleeping tasks count too.
  @Test func scheduledItemsAreCounted() {
    let account = ResourceAccount()
    account.withCurrent {
      let scheduler = TestScheduler()
      let cancelled = scheduler.schedule(after: .seconds(1)) {}
      scheduler.schedule(after: .seconds(2)) {}
      #expect(account.live == 2)
      cancelled.dispose()
      #expect(account.live == 1)
      scheduler.advance(by: .seconds(2))
      #expect(account.live == 0)
    }
  }

  // AT-40: a resource is charged to the account current where it was made, and released from
  // it wherever it ends: a subscription made under one account and disposed under another (or
  // none) still balances the first.
  @Test func aResourceIsReleasedFromTheAccountItWasChargedTo() {
    let first = ResourceAccount()
    let second = ResourceAccount()
    let subscription = first.withCurrent {
      Observable<Int, Never>.never().subscribe(onNext: { _ in })
    }
    #expect(first.live == 1)
    second.withCurrent { subscription.dispose() }
    #expect(first.live == 0)
    #expect(second.live == 0)
  }

  // AT-40: work that a dispatch scheduler runs on its own thread is charged to the account it
  // was scheduled under, so a test's resources are its own even off its task.
  @Test func scheduledWorkOnAQueueChargesTheSchedulingAccount() async {
    let account = ResourceAccount()
    let made = Signal()
    let disposeIt = Signal()
    let released = Signal()
    let scheduler = SerialDispatchQueueScheduler(label: "leak-check")
    account.withCurrent {
      _ = scheduler.schedule {
        let subscription = Observable<Int, Never>.never().subscribe(onNext: { _ in })
        made.fire()
        _ = disposeIt.waitBlocking()
        subscription.dispose()
        released.fire()
      }
    }
    #expect(await made.wait())
    #expect(account.live == 1)  // the subscription made on the queue's thread
    disposeIt.fire()
    #expect(await released.wait())
    #expect(await account.waitUntilEmpty(timeout: .seconds(30)))
  }

  // AT-40: a store's command tasks are charged to the account the store was made under, even
  // though they start on whichever thread processes the store's inputs.
  @Test func aStoresCommandsChargeTheStoresAccount() async {
    let account = ResourceAccount()
    let proceed = Signal()
    let store = account.withCurrent {
      Store(initialState: 0) { (count: inout Int, _: Int) in count += 1 }
    }
    store.run("waits") { _, store in
      _ = await proceed.wait()
      store.send(1)
    }
    #expect(account.live == 1)  // the task in flight
    proceed.fire()
    await store.finish()
    #expect(store.state == 1)
    #expect(await account.waitUntilEmpty(timeout: .seconds(30)))
  }

  // AT-40: accounts are independent, so checked tests run in parallel: one account's leak
  // leaves another account's balance untouched, and waiting on a balanced account does not wait
  // for the other.
  @Test func accountsInParallelAreIndependent() async {
    let leaking = ResourceAccount()
    let balanced = ResourceAccount()
    let leaked = leaking.withCurrent {
      Observable<Int, Never>.never().subscribe(onNext: { _ in })
    }
    balanced.withCurrent {
      let subscription = Observable<Int, Never>.never().subscribe(onNext: { _ in })
      subscription.dispose()
    }
    #expect(await balanced.waitUntilEmpty(timeout: .seconds(30)))
    #expect(await !leaking.waitUntilEmpty(timeout: .milliseconds(10)))
    #expect(leaking.live == 1)
    leaked.dispose()
    #expect(leaking.live == 0)
  }

  // AT-40: the trait reports a test that leaves a resource behind.
  @Test func theTraitReportsALeak() async throws {
    let scheduler = TestScheduler()
    let leaked = Recorder<any Disposable>()
    try await withKnownIssue {
      try await ResourceLeakCheck(grace: .milliseconds(10)).provideScope(
        for: Test.current!,
        testCase: Test.Case.current
      ) {
        leaked.append(scheduler.schedule(after: .seconds(1)) {})
      }
    } matching: { issue in
      issue.description.contains("1 stream resource(s) still live after the test")
    }
    for item in leaked.values { item.dispose() }
  }

  // AT-40: a resource released on another thread after the test body returned is waited for:
  // the check wakes when it is released, well within its grace period.
  // (Without the wait the check would record an issue, which fails this test.)
  @Test func theTraitWaitsForAReleaseOnAnotherThread() async throws {
    try await ResourceLeakCheck(grace: .seconds(30)).provideScope(
      for: Test.current!,
      testCase: Test.Case.current
    ) {
      let subscription = Observable<Int, Never>.never().subscribe(onNext: { _ in })
      DispatchQueue.global().async { subscription.dispose() }
    }
  }

  @Test func theTraitPassesABalancedTest() async throws {
    try await ResourceLeakCheck(grace: .milliseconds(10)).provideScope(
      for: Test.current!,
      testCase: Test.Case.current
    ) {
      let subscription = Observable<Int, Never>.never().subscribe(onNext: { _ in })
      subscription.dispose()
    }
  }
}
