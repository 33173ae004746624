import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// RxSwift's deferred case (ReactiveX/RxSwift, Tests/RxSwiftTests/Observable+Tests.swift; RxSwift
// has no file of its own for `deferred`): `testDeferredFactoryClosureLifetime`.
@Suite(.checksResources)
struct DeferredConformanceTests {
  /// An object whose deferred stream's factory refers to it.
  final class Owner: Sendable {
    let invoked = Counter()

    func stream() -> Observable<Int, Never> {
      Observable.deferred {
        self.invoked.increment()
        return .never()
      }
    }
  }

  // RxSwift: testDeferredFactoryClosureLifetime (once the factory has run, a live subscription
  // does not keep it, nor what it refers to)
  @Test func aSubscriptionLetsGoOfTheFactory() {
    var owner: Owner? = Owner()
    let invoked = owner?.invoked
    weak let initialOwner = owner
    let subscription = owner?.stream().subscribe { _ in }
    #expect(invoked?.value == 1)
    owner = nil
    #expect(initialOwner == nil)
    subscription?.dispose()
  }
}
