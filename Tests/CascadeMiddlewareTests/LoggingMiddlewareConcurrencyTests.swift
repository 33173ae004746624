import CascadeMiddleware
import CascadeStreams
import CascadeTesting
import Dispatch
import Logging
import Testing

@Suite(.checksResources)
struct LoggingMiddlewareConcurrencyTests {
  @Test func oneMiddlewareLogsFromManyThreads() {
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

    #expect(group.wait(timeout: .now() + .seconds(20)) == .success)
    let lines = Set(logs.messages)
    #expect(lines.count == threads * perThread)
    #expect(lines.contains("#1000 0.000s 1000 → 1000"))
  }
}
