// A toolchain check, not part of the build: is a task's cancel handler always called?
//
// `withTaskCancellationHandler`'s `onCancel` should run whenever the task is cancelled while the
// operation runs, or at once if it was cancelled before. With Swift 6.3.1 on Linux it is
// sometimes skipped when `cancel()` races with the handler being installed: the task sees its
// cancellation (`Task.isCancelled`), but the handler never runs. Cascade's code therefore never
// relies on a cancel handler alone: it checks `Task.isCancelled` after installing one
// (`TestScheduler.sleep`, `waitForPendingItems`), and the teardown tests count a task's end when
// its loop sees the cancellation.
//
// Run: swiftc -O -o /tmp/race Tooling/Toolchain/cancellation-handler-race.swift && /tmp/race 20000
// Seen on 2026-11-25 (2 cores): "tasks 20000 loop saw cancel 20000 handler ran 19993"; with
// -sanitize=thread, 17 of 5000 handlers skipped. A fixed toolchain prints equal counts.
import Dispatch
import Synchronization

let handled = Atomic<Int>(0)
let sawCancel = Atomic<Int>(0)
let count = Int(CommandLine.arguments.dropFirst().first ?? "20000") ?? 20000
for _ in 0..<count {
  let entered = DispatchSemaphore(value: 0)
  let task = Task.detached {
    entered.signal()
    await withTaskCancellationHandler {
      while !Task.isCancelled { await Task.yield() }
    } onCancel: {
      handled.add(1, ordering: .relaxed)
    }
    sawCancel.add(1, ordering: .relaxed)
  }
  entered.wait()
  task.cancel()
  _ = await task.value
}
let ran = handled.load(ordering: .relaxed)
print("tasks \(count) loop saw cancel \(sawCancel.load(ordering: .relaxed)) handler ran \(ran)")
