import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's create cases (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+Tests.swift; RxSwift
// has no file of its own for `create`): its `testAnonymousObservable_…` cases and
// `testObservableFactoryClosureLifetime`. Its case
// `testAnonymousObservable_disposeReferenceDoesntRetainObservable` is not carried: it runs only
// off Linux, on an `NSObject`'s `rx.deallocated` (RxCocoa); `aSubscriptionLetsGoOfTheProducer`
// checks the same property here.
@Suite(.checksResources)
struct CreateConformanceTests {
  static let failure = TestError("test")

  /// A stream made with `create` that hands its observer out, and the values a subscriber got.
  struct Exposed {
    let observer = LockedBox<AnyObserver<Int, TestError>?>(nil)
    let values = Recorder<Int>()

    func subscribe() -> any Disposable {
      let observer = observer
      return Observable<Int, TestError>.create { sent in
        observer.value = sent
        return Disposables.create()
      }
      .subscribe { event in
        if case .next(let value) = event { values.append(value) }
      }
    }

    func send(_ event: StreamEvent<Int, TestError>) {
      observer.value?.on(event)
    }
  }

  // RxSwift: testAnonymousObservable_detachesOnDispose
  @Test func detachesOnDispose() {
    let exposed = Exposed()
    let subscription = exposed.subscribe()
    #expect(exposed.values.values == [])
    exposed.send(.next(0))
    #expect(exposed.values.values == [0])
    subscription.dispose()
    exposed.send(.next(1))
    #expect(exposed.values.values == [0])
  }

  // RxSwift: testAnonymousObservable_detachesOnComplete, testAnonymousObservable_detachesOnError
  @Test(arguments: [StreamEvent<Int, TestError>.completed, .error(failure)])
  func detachesOnATerminalEvent(_ end: StreamEvent<Int, TestError>) {
    let exposed = Exposed()
    _ = exposed.subscribe()
    #expect(exposed.values.values == [])
    exposed.send(.next(0))
    #expect(exposed.values.values == [0])
    exposed.send(end)
    exposed.send(.next(1))
    #expect(exposed.values.values == [0])
  }

  /// An object whose stream's producer refers to it.
  final class Owner: Sendable {
    func stream() -> Observable<Int, Never> {
      Observable.create { _ in
        _ = self
        return Disposables.create()
      }
    }
  }

  // RxSwift: testObservableFactoryClosureLifetime (a live subscription does not keep the
  // producer, nor what it refers to)
  @Test func aSubscriptionLetsGoOfTheProducer() {
    var owner: Owner? = Owner()
    weak let initialOwner = owner
    let subscription = owner?.stream().subscribe { _ in }
    owner = nil
    #expect(initialOwner == nil)
    subscription?.dispose()
  }
}
