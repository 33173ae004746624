import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

@Suite(.checksResources)
struct StartWithTests {
  /// `startWith` and Combine's spelling of it, `prepend`.
  enum Spelling: String, CaseIterable, Sendable {
    case startWith, prepend

    func oneAndTwo(before source: Observable<Int, Never>) -> Observable<Int, Never> {
      switch self {
      case .startWith: source.startWith(1, 2)
      case .prepend: source.prepend(1, 2)
      }
    }
  }

  @Test(arguments: Spelling.allCases)
  func emitsTheElementsFirst(_ spelling: Spelling) {
    let events = Recorder<StreamEvent<Int, Never>>()
    spelling.oneAndTwo(before: .of(3, 4)).subscribe { events.append($0) }
    #expect(events.values == [.next(1), .next(2), .next(3), .next(4), .completed])
  }

  @Test(arguments: Spelling.allCases)
  func anEndedSubscriberStopsThemAndNeverSubscribesUpstream(_ spelling: Spelling) {
    let subscriptions = Counter()
    let source = Observable<Int, Never>.create { observer in
      subscriptions.increment()
      observer.onNext(3)
      return Disposables.empty
    }
    let received = Recorder<Int>()
    spelling.oneAndTwo(before: source).take(1).subscribe(onNext: { received.append($0) })
    #expect(received.values == [1])
    #expect(subscriptions.value == 0)
  }
}
