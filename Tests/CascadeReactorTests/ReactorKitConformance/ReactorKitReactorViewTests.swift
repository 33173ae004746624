import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReactorKit's view cases (ReactorKit/ReactorKit, Tests/ReactorKitTests/ReactorViewTests.swift),
// against Cascade's `View`, which is not tied to UIKit: assigning a reactor binds it at once.
//
// Not carried (UIKit/AppKit view controllers, which Cascade's `View` does not know):
// - testViewController_alreadyHasView: binding a view controller whose view is loaded (UIKit).
// - testDeferBinding: binding deferred until the view controller's view loads (UIKit).
// - testDeferBinding_deinitWhileDeferred: a view controller released while its binding waits
//   for its view (UIKit).
// - testDeferBinding_changeReactorWhileDeferred: a reactor replaced while the binding waits for
//   the view controller's view (UIKit).
// - testSwizzlingOriginalMethodInvoked: `loadView` swizzling still runs the original method
//   (Objective-C runtime).

private final class EmptyReactor: Reactor {
  typealias Action = Never
  struct State: Sendable {}

  let initialState = State()
}

@MainActor
private final class CountingView: View {
  let reactorBinding = ReactorBinding<EmptyReactor>()
  var disposeBag = DisposeBag()
  var bindInvokeCount = 0

  func bind(reactor: EmptyReactor) {
    bindInvokeCount += 1
  }
}

@MainActor
@Suite(.checksResources)
struct ReactorKitReactorViewTests {
  /// Assigning a reactor binds the view to it once; assigning another binds again.
  @Test func testBindIsInvoked_differentReactor() {
    let view = CountingView()
    #expect(view.bindInvokeCount == 0)
    view.reactor = EmptyReactor()
    #expect(view.bindInvokeCount == 1)
    view.reactor = EmptyReactor()
    #expect(view.bindInvokeCount == 2)
  }

  /// Assigning a reactor replaces the view's dispose bag, disposing the previous bindings.
  @Test func testDisposeBagIsDisposed_differentReactor() {
    let view = CountingView()
    let disposed = Counter()
    Disposables.create { disposed.increment() }.disposed(by: view.disposeBag)
    let oldBag = ObjectIdentifier(view.disposeBag)
    view.reactor = EmptyReactor()
    // The new bag exists before the old one goes, so the two cannot share an address.
    #expect(ObjectIdentifier(view.disposeBag) != oldBag)
    #expect(disposed.value == 1)
  }

  /// The view keeps the reactor assigned to it.
  @Test func testReactor_assign() {
    let reactor = EmptyReactor()
    let view = CountingView()
    view.reactor = reactor
    #expect(view.reactor != nil)
    #expect(view.reactor === reactor)
  }

  /// Assigning `nil` removes the view's reactor.
  @Test func testReactor_assignNil() {
    let reactor = EmptyReactor()
    let view = CountingView()
    view.reactor = reactor
    view.reactor = nil
    #expect(view.reactor == nil)
  }
}
