/// The subscription behind ``Observable/create(_:)``: the user's teardown is its upstream, and
/// the observer handed to the producer delivers through ``Sink/serialize(_:)``.
final class ProducerSink<Element: Sendable, Failure: Error>: Sink<Element, Failure>,
  @unchecked Sendable
{
  // Safety: no state beyond Sink's.
  func run(
    _ subscribe: @Sendable (AnyObserver<Element, Failure>) -> any Disposable
  ) -> any Disposable {
    let teardown = subscribe(observer { [self] in serialize($0) })
    upstream.insert(teardown)
    return self
  }
}
