import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct ResourceLeakCheckTests {
  // AT-40: the counter instrumentation is compiled in. A live subscription raises
  // Resources.total and disposing it brings the count back; if the instrumentation were missing
  // or compiled out, this test fails.
  @Test func subscriptionsAreCounted() {
    let before = Resources.total
    let subscription = Observable<Int, Never>.never().subscribe(onNext: { _ in })
    #expect(Resources.total >= before + 1)
    subscription.dispose()
    #expect(Resources.total == before)

    let created = Observable<Int, Never>.create { _ in Disposables.empty }.subscribe { _ in }
    #expect(Resources.total >= before + 2)
    created.dispose()
    #expect(Resources.total == before)
  }

  // AT-40: scheduled items and sleeping tasks count too.
  @Test func scheduledItemsAreCounted() {
    let scheduler = TestScheduler()
    let before = Resources.total
    let cancelled = scheduler.schedule(after: .seconds(1)) {}
    scheduler.schedule(after: .seconds(2)) {}
    #expect(Resources.total == before + 2)
    cancelled.dispose()
    #expect(Resources.total == before + 1)
    scheduler.advance(by: .seconds(2))
    #expect(Resources.total == before)
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
