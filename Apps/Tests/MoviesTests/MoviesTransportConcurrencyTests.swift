import AppTestSupport
import CascadeStreams
import Foundation
import MoviesCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Both HTTP transports under requests from many threads at once, some cancelled as they start,
/// run under ThreadSanitizer by CI (the suite's name ends in `ConcurrencyTests`).
///
/// They hold mutable state that the compiler cannot check: AsyncHTTPClient's delegate
/// (`PageDelegate`, `@unchecked Sendable`: its reader and failure change on its event loop),
/// and `URLSession`'s task handle (`TaskBox`). Each fetch goes one of three ways — a page, a
/// body over the size limit, a cancel racing the answer — from four threads, so that TSan sees
/// the delegate's calls, the completion that reads its failure, and the cancels from other
/// threads interleave. The catalog server runs in a process of its own (`movies serve`), so that
/// what TSan watches is the clients, not the server library's own locking (FlyingFox's, whose
/// cancellation path TSan flagged once in CI). Each thread waits for the outcome of a fetch it
/// did not cancel before the next, so that AsyncHTTPClient's pool (8 connections a host) never
/// keeps a request waiting for a connection, also on a busy machine.
@Suite struct MoviesTransportConcurrencyTests {
  static let threads = 4
  static let fetchesPerThread = 24
  static let executable = builtProduct(named: "movies")

  /// Runs `body` with the base URL of `movies serve --port 0`, started for it and ended after.
  static func withServerProcess<T>(_ body: (String) async throws -> T) async throws -> T {
    let executable = try #require(executable, "build the movies product first")
    let process = Process()
    process.executableURL = executable
    process.arguments = ["serve", "--port", "0"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let exited = Signal()
    process.terminationHandler = { _ in exited.fire() }
    try process.run()
    defer {
      kill(process.processIdentifier, SIGKILL)
      _ = exited.waitBlocking(timeout: .seconds(30))
    }
    // "Serving N films (P pages) at URL/discover/movie?page=1 — Ctrl-C to stop."
    let reader = output.fileHandleForReading
    let banner = await onOwnThread { () -> String in
      var bytes: [UInt8] = []
      while let byte = try? reader.read(upToCount: 1), let first = byte.first, first != 10 {
        bytes.append(first)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    let start = try #require(banner.range(of: " at "), "no address in \(banner)")
    let end = try #require(banner.range(of: "/discover/movie"), "no address in \(banner)")
    return try await body(String(banner[start.upperBound..<end.lowerBound]))
  }

  @Test(
    .enabled(if: executable != nil, "the movies executable was not found next to the tests"),
    arguments: MoviesClient.Transport.allCases
  )
  func requestsFromManyThreadsEachEndOnceWithTheirOwnOutcome(
    _ transport: MoviesClient.Transport
  ) async throws {
    try await Self.withServerProcess { url in
      // Generous timeouts: the server runs in this process, which the suite may keep busy (a
      // timeout is a safety net here, never the outcome).
      let client = try MoviesClient(baseURL: url, timeout: .seconds(120), transport: transport)
      // A page of the small catalog is about 2 KB: 200 bytes is over the limit.
      let small = try MoviesClient(
        baseURL: url,
        timeout: .seconds(120),
        maxBodyBytes: 200,
        transport: transport
      )
      let outcomes = Watched<[String]>([])
      let expected = Watched(0)
      let finished = await runOnThreads(Self.threads) { thread in
        for fetch in 0..<Self.fetchesPerThread {
          let page = 1 + fetch % 3
          let label = "\(thread).\(fetch)"
          switch fetch % 3 {
          case 0:
            expected.update { $0 += 1 }
            let ended = Signal()
            _ = client.page(page).subscribe(
              onNext: { loaded in outcomes.update { $0.append("\(label) page \(loaded.page)") } },
              onError: { error in
                outcomes.update { $0.append("\(label) failed \(error)") }
                ended.fire()
              },
              onCompleted: { ended.fire() }
            )
            _ = ended.waitBlocking(timeout: .seconds(150))
          case 1:
            expected.update { $0 += 1 }
            let ended = Signal()
            _ = small.page(page).subscribe(
              onNext: { _ in outcomes.update { $0.append("\(label) page too large read") } },
              onError: { error in
                outcomes.update {
                  $0.append(
                    error == .bodyTooLarge(limit: 200)
                      ? "\(label) too large" : "\(label) failed \(error)"
                  )
                }
                ended.fire()
              }
            )
            _ = ended.waitBlocking(timeout: .seconds(150))
          default:
            // Cancelled as it starts: whatever it delivers before the cancel, nothing after.
            let cancelled = Watched(false)
            let subscription = client.page(page).subscribe(
              onNext: { _ in
                if cancelled.value { outcomes.update { $0.append("\(label) after cancel") } }
              },
              onError: { _ in
                if cancelled.value { outcomes.update { $0.append("\(label) after cancel") } }
              }
            )
            cancelled.set(true)
            subscription.dispose()
          }
        }
      }
      #expect(finished)
      let count = expected.value
      #expect(await outcomes.wait { $0.count >= count }, "\(outcomes.value.count) of \(count)")
      let results = outcomes.value
      #expect(results.filter { $0.contains("failed") || $0.contains("after cancel") } == [])
      #expect(results.count == count)
      for thread in 0..<Self.threads {
        for fetch in 0..<Self.fetchesPerThread where fetch % 3 != 2 {
          let label = "\(thread).\(fetch)"
          let outcome = fetch % 3 == 0 ? "\(label) page \(1 + fetch % 3)" : "\(label) too large"
          #expect(results.filter { $0 == outcome }.count == 1, "\(outcome)")
        }
      }
    }
  }
}
