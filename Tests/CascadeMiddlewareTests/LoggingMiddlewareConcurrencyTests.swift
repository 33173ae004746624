import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Dispatch
import Logging
import Testing

@Suite(.checksResources)
struct LoggingMiddlewareConcurrencyTests {
  @Test func oneMiddlewareLogsFromManyThreads() async {
    let logs = CapturedLogs()
    let logging = LoggingMiddleware<Int, Int>(logger: logs.logger(), state: .full)
    let threads = 4
    let perThread = 250
    let group = DispatchGroup()

    for thread in 0..<threads {
      DispatchQueue.global().async(group: group) {
        for index in 0..<perThread {
          let sequence = thread * perThread + index + 1
          logging.process(
            MiddlewareRecord(
              input: sequence,
              state: sequence,
              sequence: UInt64(sequence),
              time: .zero,
              dispatcher: .none
            )
          )
        }
      }
    }

    // Waits for the workers without blocking a thread of the cooperative pool; the timeout only
    // turns a hang into a failure.
    let done = Signal()
    group.notify(queue: .global()) { done.fire() }
    #expect(await done.wait(timeout: .seconds(60)))
    let lines = Set(logs.messages)
    #expect(lines.count == threads * perThread)
    #expect(lines.contains("#1000 0.000s 1000 → 1000"))
  }
}
