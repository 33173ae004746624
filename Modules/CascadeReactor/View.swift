public import CascadeStreams

/// An object that shows a reactor's state and sends it actions: ReactorKit's `View`.
///
/// Give it storage for its reactor (`let reactorBinding = ReactorBinding<MyReactor>()`) and a
/// `disposeBag`; assigning ``reactor`` disposes the previous bindings (a new bag) and calls
/// ``bind(reactor:)`` once. A command-line front is a view as much as a screen is.
///
/// ```swift
/// @MainActor
/// final class CounterView: View {
///   let reactorBinding = ReactorBinding<CounterReactor>()
///   var disposeBag = DisposeBag()
///   var label = ""
///
///   func bind(reactor: CounterReactor) {
///     reactor.state.map(\.value).subscribe(onNext: { [weak self] value in
///       MainActor.assumeIsolated { self?.label = "\(value)" }
///     })
///     .disposed(by: disposeBag)
///   }
/// }
///
/// view.reactor = CounterReactor()  // binds
/// ```
@MainActor
public protocol View: AnyObject {
  /// The reactor type the view binds.
  associatedtype ViewReactor: Reactor

  /// Where the view keeps its reactor.
  var reactorBinding: ReactorBinding<ViewReactor> { get }

  /// The bindings of the current reactor; replaced (and so disposed) when the reactor changes.
  var disposeBag: DisposeBag { get set }

  /// Binds the view to `reactor`: actions from the view, state to the view.
  func bind(reactor: ViewReactor)
}

extension View {
  /// The view's reactor.
  ///
  /// Setting it disposes the previous bindings and calls ``bind(reactor:)`` with the new one;
  /// setting `nil` only disposes.
  public var reactor: ViewReactor? {
    get { reactorBinding.reactor }
    set {
      disposeBag = DisposeBag()
      reactorBinding.reactor = newValue
      if let newValue { bind(reactor: newValue) }
    }
  }
}

/// The storage of a ``View``'s reactor.
@MainActor
public final class ReactorBinding<R: Reactor> {
  /// The reactor, or `nil`.
  public fileprivate(set) var reactor: R?

  /// Creates empty storage.
  public init() {}
}
