import AppSupport
import ArgumentParser
import CommandLineSupport
import Foundation
import MoviesServer

/// `movies serve`: runs the catalog server alone.
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Runs the catalog server alone, until interrupted (Ctrl-C).",
    discussion: """
      The fault options make pages misbehave, to see how a client copes: each takes a page \
      number (1 to 500) and may be repeated.

      \(ExitStatus.helpText)
      """
  )

  @Option(help: "The port to listen on (0: a free one).")
  var port: UInt16 = 8080

  @Option(help: "The IPv4 address to listen on.")
  var host = "127.0.0.1"

  @Option(
    name: .customLong("malformed-page"),
    parsing: .unconditionalSingleValue,
    help: "A page that answers malformed JSON."
  )
  var malformedPages: [Int] = []

  @Option(
    name: .customLong("hang-page"),
    parsing: .unconditionalSingleValue,
    help: "A page that never answers."
  )
  var hangingPages: [Int] = []

  @Option(
    name: .customLong("truncated-page"),
    parsing: .unconditionalSingleValue,
    help: "A page whose reply is cut short: half the announced body, then the connection closes."
  )
  var truncatedPages: [Int] = []

  @Option(
    name: .customLong("html-page"),
    parsing: .unconditionalSingleValue,
    help: "A page that answers HTML (text/html), not JSON."
  )
  var htmlPages: [Int] = []

  @Option(
    name: .customLong("oversized-page"),
    parsing: .unconditionalSingleValue,
    help: "A page whose JSON is padded with spaces to 20 MiB (over the client's 10 MiB default)."
  )
  var oversizedPages: [Int] = []

  @Option(
    name: .customLong("rate-limited-page"),
    parsing: .unconditionalSingleValue,
    help: "A page that answers HTTP 429 (too many requests) every time."
  )
  var rateLimitedPages: [Int] = []

  @Option(
    name: .customLong("retry-after"),
    help: ArgumentHelp(
      "The Retry-After header of the 429 answers: seconds, or an HTTP-date.",
      valueName: "value"
    )
  )
  var retryAfter: String?

  @OptionGroup var server: ServerOptions

  func validate() throws {
    for (name, pages) in [
      ("--malformed-page", malformedPages), ("--hang-page", hangingPages),
      ("--truncated-page", truncatedPages), ("--html-page", htmlPages),
      ("--oversized-page", oversizedPages), ("--rate-limited-page", rateLimitedPages),
    ] {
      for page in pages { try NumericOption.check(page, of: name, in: 1...500) }
    }
    if let retryAfter, retryAfter.contains(where: \.isNewline) {
      throw ValidationError("--retry-after must be one line")
    }
  }

  func run() async throws {
    var faults = server.faults
    faults.malformedPages = Set(malformedPages)
    faults.hangingPages = Set(hangingPages)
    faults.disconnectingPages = Dictionary(truncatedPages.map { ($0, Int.max) }) { $1 }
    faults.htmlPages = Set(htmlPages)
    faults.oversizedPages = Dictionary(
      oversizedPages.map { ($0, ServerFaults.Padding(bytes: 20 * 1024 * 1024)) }
    ) { $1 }
    faults.rateLimitedPages = Dictionary(rateLimitedPages.map { ($0, Int.max) }) { $1 }
    faults.retryAfter = retryAfter
    let catalog = try server.catalogOrExit()
    let server = MovieCatalogServer(catalog: catalog, faults: faults)
    let url: URL
    do {
      url = try await server.start(host: host, port: port)
    } catch {
      throw fail("\(error)", .ioError)
    }
    StandardOutput.print(
      """
      Serving \(catalog.movies.count) films (\(catalog.totalPages) pages) at \
      \(url.absoluteString)/discover/movie?page=1 — Ctrl-C to stop.

      """
    )
    while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
  }
}
