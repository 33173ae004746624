import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Foundation
import Testing

/// A tracer called from several threads at once: one store processing inputs sent by four
/// threads, its commands ending on the cooperative pool, one `ChromeTraceRecorder` shared by
/// three more architectures running at the same time (run under TSan in CI).
@Suite(.checksResources)
struct TracingConcurrencyTests {
  static let perThread = 250

  @Test func everyInputAndEffectIsTracedOnceFromEveryThread() async throws {
    let trace = ChromeTraceRecorder<Op, Tally>(process: "shared")
    let store = Store(
      initialState: Tally(),
      middlewares: [trace],
      scheduler: TestScheduler()
    ) { state, op in state.apply(op) }

    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<4 {
        group.addTask {
          for step in 0..<Self.perThread {
            store.send(.add(1))
            if step.isMultiple(of: 50) {
              store.run("effect \(thread)-\(step)") { _, store in
                await Task.yield()
                store.send(.note("\(thread)-\(step)"))
              }
            }
          }
        }
      }
      // Other architectures, the same recorder: their inputs and effects interleave.
      for arch in Arch.allCases {
        group.addTask {
          let running = Running.make(arch, middlewares: [trace])
          for _ in 0..<Self.perThread { running.send(.multiply(1)) }
        }
      }
    }
    await store.finish()

    let object = try JSONSerialization.jsonObject(with: Data(trace.json().utf8)) as? [String: Any]
    let events = try #require(object?["traceEvents"] as? [[String: Any]])
    let inputs = events.filter { $0["cat"] as? String == "input" }
    let effects = 4 * (Self.perThread / 50)
    // The store's inputs (additions and the effects' notes) and the other architectures'.
    #expect(inputs.count == 4 * Self.perThread + effects + 3 * Self.perThread)
    #expect(inputs.filter { $0["name"] as? String == "add(1)" }.count == 4 * Self.perThread)
    let ends = events.filter { $0["ph"] as? String == "e" }
    #expect(ends.count == effects)
    #expect(ends.allSatisfy { ($0["args"] as? [String: Any])?["outcome"] as? String == "ended" })
    #expect(store.state.value == 4 * Self.perThread)
  }
}
