import ArgumentParser
import Foundation
import MoviesServer

/// `movies serve`: runs the catalog server alone.
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Runs the catalog server alone, until interrupted (Ctrl-C)."
  )

  @Option(help: "The port to listen on (0: a free one).")
  var port: UInt16 = 8080

  @Option(help: "The IPv4 address to listen on.")
  var host = "127.0.0.1"

  @Option(
    name: .customLong("malformed-page"),
    help: "A page that answers malformed JSON (repeatable)."
  )
  var malformedPages: [Int] = []

  @Option(name: .customLong("hang-page"), help: "A page that never answers (repeatable).")
  var hangingPages: [Int] = []

  @OptionGroup var server: ServerOptions

  func run() async throws {
    var faults = server.faults
    faults.malformedPages = Set(malformedPages)
    faults.hangingPages = Set(hangingPages)
    let catalog = try server.loadCatalog()
    let server = MovieCatalogServer(catalog: catalog, faults: faults)
    let url = try await server.start(host: host, port: port)
    let message = """
      Serving \(catalog.movies.count) films (\(catalog.totalPages) pages) at \
      \(url.absoluteString)/discover/movie?page=1 — Ctrl-C to stop.

      """
    FileHandle.standardOutput.write(Data(message.utf8))
    while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
  }
}
