import CascadeStreams
import Testing

// A ReactorKit-style view model written against RxSwift and RxRelay, ported to Cascade.
//
// The code between the "ported" marks is the RxSwift original. Only these lines differ:
//
// - the imports: `import RxSwift` and `import RxRelay` became `import CascadeStreams`;
// - the one spelled-out trait type, `Single<[String]>` in `search(_:page:)`, which names its
//   failure type here: `Single<[String], any Error>`. Cascade's streams and traits carry a typed
//   failure as a second generic parameter, which Swift cannot default, so RxSwift's
//   one-parameter `Single<Element>` and `Observable<Element>` have no spelling of their own (the
//   relays, which cannot fail, keep theirs: `BehaviorRelay<String>`).
//
// `Observable.zip(_:_:)`, RxSwift's static spelling, was added to Cascade for this snippet (its
// `zip` was an instance method only); everything else compiled as written.

// MARK: - ported

enum SearchError: Error {
  case offline
}

struct FakeSearchAPI {
  let catalog: [String]
  let pageSize: Int

  func search(_ query: String, page: Int) -> Single<[String], any Error> {
    Single.create { single in
      if query == "offline" {
        single(.failure(SearchError.offline))
        return Disposables.create()
      }
      let matches = catalog.filter { $0.hasPrefix(query) }
      let start = min((page - 1) * pageSize, matches.count)
      let end = min(start + pageSize, matches.count)
      single(.success(Array(matches[start..<end])))
      return Disposables.create()
    }
  }
}

final class SearchViewModel {
  let query = BehaviorRelay<String>(value: "")
  let results = BehaviorRelay<[String]>(value: [])
  let isEmpty = BehaviorRelay<Bool>(value: true)
  private let disposeBag = DisposeBag()

  init(api: FakeSearchAPI) {
    query
      .filter { !$0.isEmpty }
      .flatMapLatest { query in
        Observable.zip(
          api.search(query, page: 1).asObservable(),
          api.search(query, page: 2).asObservable()
        )
        .map { first, second in first + second }
        .catchAndReturn([])
      }
      .subscribe(onNext: { [results] items in
        results.accept(items)
      })
      .disposed(by: disposeBag)

    results
      .map { $0.isEmpty }
      .distinctUntilChanged()
      .subscribe(onNext: { [isEmpty] value in
        isEmpty.accept(value)
      })
      .disposed(by: disposeBag)
  }
}

// MARK: - end of ported

/// The ported view model, driven as a view would: its sources are synchronous, so each query's
/// results are there when `accept` returns.
struct PortedReactorKitSnippetTests {
  let api = FakeSearchAPI(
    catalog: ["swift", "swiftui", "swiftdata", "swiftpm", "rust", "ruby"],
    pageSize: 2
  )

  @Test func aQueryZipsTwoPagesIntoTheResults() {
    let viewModel = SearchViewModel(api: api)
    #expect(viewModel.results.value == [])
    #expect(viewModel.isEmpty.value)

    viewModel.query.accept("swift")
    #expect(viewModel.results.value == ["swift", "swiftui", "swiftdata", "swiftpm"])
    #expect(!viewModel.isEmpty.value)

    viewModel.query.accept("ru")
    #expect(viewModel.results.value == ["rust", "ruby"])
  }

  @Test func anEmptyQueryIsNotSearched() {
    let viewModel = SearchViewModel(api: api)
    viewModel.query.accept("ru")
    viewModel.query.accept("")
    #expect(viewModel.results.value == ["rust", "ruby"])
  }

  @Test func aFailedRequestGivesNoResultsAndKeepsTheBindingAlive() {
    let viewModel = SearchViewModel(api: api)
    viewModel.query.accept("swift")
    viewModel.query.accept("offline")
    #expect(viewModel.results.value == [])
    #expect(viewModel.isEmpty.value)
    viewModel.query.accept("ru")
    #expect(viewModel.results.value == ["rust", "ruby"])
    #expect(!viewModel.isEmpty.value)
  }
}
