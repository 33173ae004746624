import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

// ReSwift's SynchronizedTests (ReSwift/ReSwift, ReSwiftTests/SynchronizedTests.swift),
// re-expressed on Cascade's `LockedValue` (CascadeStreams), the lock-guarded value Cascade
// offers where ReSwift has its internal `Synchronized`.
//
// ReSwift's `testWritePerformance` and `testReadPerformance` time their work with XCTest's
// `measure`; the timing is not carried (a test here never decides by the clock), the correctness
// each asserts inside `measure` is: every concurrent write is counted.
@Suite(.checksResources)
struct ReSwiftSynchronizedTests {
  /// The peer's number of concurrent operations.
  static let iterations = 100
  /// The peer's ratio of reads to writes in its read test: one in ten operations reads.
  static let writeMultipleOf = 10
  /// The threads the operations are spread over.
  static let threads = 4

  /// ReSwift's `Database`: a dictionary shared by every thread, behind the lock.
  final class Database: Sendable {
    private let data = LockedValue<[String: Bool]>([:])

    func get(key: String) -> Bool? {
      data.withLock { $0[key] }
    }

    func set(key: String, value: Bool) {
      data.withLock { $0[key] = value }
    }
  }

  /// Many threads writing one shared value at once neither crash nor lose the value.
  @Test func testSharedVariable() async {
    let database = Database()
    let finished = await runOnThreads(Self.threads) { _ in
      for _ in 0..<(Self.iterations / Self.threads) {
        database.set(key: "test", value: true)
      }
    }
    #expect(finished)
    #expect(database.get(key: "test") == true)
  }

  /// Concurrent increments under the lock are all counted.
  @Test func testWritePerformance() async {
    let temp = LockedValue(0)
    let finished = await runOnThreads(Self.threads) { _ in
      for _ in 0..<(Self.iterations / Self.threads) {
        temp.withLock { $0 += 1 }
      }
    }
    #expect(finished)
    #expect(temp.withLock { $0 } == Self.iterations)
  }

  /// Reads interleaved with writes see consistent values, and every write is counted.
  @Test func testReadPerformance() async {
    let temp = LockedValue(0)
    let reads = LockedValue<[Int]>([])
    let perThread = Self.iterations / Self.threads
    let finished = await runOnThreads(Self.threads) { thread in
      for step in 0..<perThread {
        if (thread * perThread + step) % Self.writeMultipleOf == 0 {
          let value = temp.withLock { $0 }
          reads.withLock { $0.append(value) }
        } else {
          temp.withLock { $0 += 1 }
        }
      }
    }
    #expect(finished)
    let writes = Self.iterations - Self.iterations / Self.writeMultipleOf
    #expect(temp.withLock { $0 } == writes)
    #expect(temp.withLock { $0 } >= Self.iterations / Self.writeMultipleOf)
    #expect(reads.withLock { $0 }.allSatisfy { (0...writes).contains($0) })
  }
}
