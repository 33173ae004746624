import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct DisposableTests {
  @Test func anonymousDisposableRunsOnce() {
    let count = Counter()
    let disposable = Disposables.create { count.increment() }
    #expect(!disposable.isDisposed)
    disposable.dispose()
    disposable.dispose()
    #expect(count.value == 1)
    #expect(disposable.isDisposed)
  }

  @Test func singleAssignmentDisposesLateAssignment() {
    let count = Counter()
    let single = SingleAssignmentDisposable()
    single.dispose()
    single.setDisposable(Disposables.create { count.increment() })
    #expect(count.value == 1)
  }

  @Test func serialDisposableDisposesPrevious() {
    let log = Recorder<String>()
    let serial = SerialDisposable()
    serial.replace(with: Disposables.create { log.append("a") })
    serial.replace(with: Disposables.create { log.append("b") })
    #expect(log.values == ["a"])
    serial.dispose()
    serial.replace(with: Disposables.create { log.append("c") })
    #expect(log.values == ["a", "b", "c"])
  }

  @Test func compositeDisposesAllAndLaterInsertions() {
    let log = Recorder<Int>()
    let composite = CompositeDisposable()
    let key = composite.insert(Disposables.create { log.append(1) })
    composite.insert(Disposables.create { log.append(2) })
    #expect(composite.count == 2)
    composite.remove(for: key!)
    #expect(log.values == [1])
    composite.dispose()
    #expect(log.values == [1, 2])
    #expect(composite.insert(Disposables.create { log.append(3) }) == nil)
    #expect(log.values == [1, 2, 3])
  }

  @Test func disposeBagDisposesOnRelease() {
    let count = Counter()
    var bag: DisposeBag? = DisposeBag()
    let subject = PublishSubject<Int, Never>()
    subject.subscribe(onNext: { _ in count.increment() }).disposed(by: bag!)
    subject.onNext(1)
    bag = nil
    subject.onNext(2)
    #expect(count.value == 1)
    #expect(!subject.hasObservers)
  }
}
