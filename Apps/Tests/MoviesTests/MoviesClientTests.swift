import CascadeTesting
import Foundation
import MoviesCore
import MoviesServer
import Testing

/// The HTTP client against the real catalog server on loopback, through each HTTP client
/// (AsyncHTTPClient and URLSession on Linux): pages, and each kind of failure mapped to its own
/// typed error.
@Suite(.checksResources) struct MoviesClientTests {
  @Test(arguments: MoviesClient.Transport.allCases)
  func decodesAPage(_ transport: MoviesClient.Transport) async throws {
    try await withServer { _, url in
      let client = try MoviesClient(baseURL: url, timeout: .seconds(120), transport: transport)
      let page = try await load(3, from: client).get()
      #expect(page.page == 3)
      #expect(page.totalPages == 3)
      #expect(page.totalResults == 45)
      #expect(page.results.map(\.id) == Array(41...45))
      #expect(page.results.first?.year == 2001)
    }
  }

  @Test(arguments: MoviesClient.Transport.allCases)
  func mapsHTTPErrors(_ transport: MoviesClient.Transport) async throws {
    try await withServer(faults: ServerFaults(failingPages: [1: 1])) { _, url in
      let client = try MoviesClient(baseURL: url, timeout: .seconds(120), transport: transport)
      #expect(await load(1, from: client) == .failure(.httpStatus(500)))
      #expect(await load(0, from: client) == .failure(.httpStatus(400)))
      let elsewhere = try MoviesClient(
        baseURL: url + "/nothing/here",
        timeout: .seconds(120),
        transport: transport
      )
      #expect(await load(1, from: elsewhere) == .failure(.httpStatus(404)))
    }
  }

  @Test(arguments: MoviesClient.Transport.allCases)
  func mapsAMalformedBody(_ transport: MoviesClient.Transport) async throws {
    try await withServer(faults: ServerFaults(malformedPages: [2])) { _, url in
      let client = try MoviesClient(baseURL: url, timeout: .seconds(120), transport: transport)
      #expect(await load(2, from: client) == .failure(.malformedBody("not JSON")))
    }
  }

  @Test(arguments: MoviesClient.Transport.allCases)
  func mapsATimeout(_ transport: MoviesClient.Transport) async throws {
    try await withServer(faults: ServerFaults(hangingPages: [1])) { _, url in
      let client = try MoviesClient(baseURL: url, timeout: .milliseconds(500), transport: transport)
      #expect(await load(1, from: client) == .failure(.timeout))
    }
  }

  @Test(arguments: MoviesClient.Transport.allCases)
  func mapsAnUnreachableServer(_ transport: MoviesClient.Transport) async throws {
    let url = try await withServer { _, url in url }  // stopped: nothing listens there now
    let client = try MoviesClient(baseURL: url, timeout: .seconds(120), transport: transport)
    #expect(await load(1, from: client) == .failure(.transport("connection refused")))
  }

  @Test(arguments: ["notaurl", "ftp://example.com", "http://", "", "127.0.0.1:8080"])
  func refusesABadURL(_ url: String) {
    #expect(throws: MoviesClient.InvalidURL.self) { try MoviesClient(baseURL: url) }
  }

  // The same client works against TMDB (v3): base URL, path and key (not called here).
  @Test func buildsTMDBRequests() throws {
    let client = try MoviesClient(baseURL: "https://api.themoviedb.org/3", apiKey: "KEY")
    #expect(
      client.url(ofPage: 2).absoluteString
        == "https://api.themoviedb.org/3/discover/movie?page=2&api_key=KEY"
    )
  }
}
