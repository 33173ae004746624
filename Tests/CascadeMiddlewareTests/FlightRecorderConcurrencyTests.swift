import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Foundation
import Testing

/// A flight recorder shared by threads that send to one store while another writes its file
/// again and again: every file written is whole — the header, a state, then consecutive
/// records — and the last one ends at the store's state (under ThreadSanitizer and
/// AddressSanitizer in CI).
@Suite(.checksResources)
struct FlightRecorderConcurrencyTests {
  @Test func writesWhileThreadsSendAreWhole() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.file("flight.jsonl")
    let flight = try FlightRecorder<Op, Tally>(file: file, capacity: 4_096, dumpsOnCrash: false)
    let store = Store(initialState: Tally(), middlewares: [flight]) { $0.apply($1) }
    let senders = 4
    let perSender =
      2_000 / (ProcessInfo.processInfo.environment["CASCADE_STRESS_SCALE"].flatMap(Int.init) ?? 1)
    let problems = Recorder<String>()

    let finished = await runOnThreads(senders + 1) { thread in
      guard thread == senders else {
        for _ in 0..<perSender { store.send(.add(1)) }
        return
      }
      for write in 0..<50 {
        do {
          try flight.write()
          let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
          if let problem = Self.problem(in: lines.map(String.init)) {
            problems.append("write \(write): \(problem)")
          }
        } catch {
          problems.append("write \(write): \(error)")
        }
      }
    }

    #expect(finished)
    #expect(problems.values.isEmpty, "\(problems.values.prefix(3))")
    try flight.write()
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    let last = try JSONDecoder().decode(
      FlightRecorderTests.StateLine.self,
      from: Data(try #require(lines.last).utf8)
    )
    #expect(last.state == store.state)
    #expect(store.state.value == senders * perSender)
  }

  /// What is wrong with a written file, if anything.
  static func problem(in lines: [String]) -> String? {
    guard lines.first == #"{"cascadeRecording":1}"# else { return "no header" }
    guard lines.count == 1 || lines[1].hasPrefix(#"{"state":"#) else {
      return "does not start with a state"
    }
    var previous: Int?
    for line in lines.dropFirst() {
      guard (try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil else {
        return "a line that is not JSON: \(line.prefix(80))"
      }
      if line.hasPrefix(#"{"state":"#) { continue }
      guard
        let sequence = try? JSONDecoder().decode(
          FlightRecorderTests.SequenceLine.self,
          from: Data(line.utf8)
        ).sequence
      else { return "a record without its sequence" }
      if let previous, sequence != previous + 1 { return "\(previous) then \(sequence)" }
      previous = sequence
    }
    return nil
  }
}
