import CascadeStreams
import CascadeTesting
import Testing

/// The examples of README.md, verbatim where possible, so the front page cannot rot.
@Suite(.checksResources)
struct ReadmeExampleTests {
  @Test func debouncesTyping() {
    let scheduler = TestScheduler()
    let typed = PublishSubject<String, Never>()
    let observer = scheduler.createObserver(String.self)
    let subscription = typed.debounce(.milliseconds(300), scheduler: scheduler).subscribe(observer)

    typed.onNext("s")
    scheduler.advance(by: .milliseconds(100))
    typed.onNext("sw")
    scheduler.advance(by: .milliseconds(300))

    #expect(observer.events == [.next(.milliseconds(400), "sw")])
    subscription.dispose()
  }
}
