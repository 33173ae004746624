import ArgumentParser

/// `movies`: pages through a movie catalog served over HTTP, on any architecture.
@main
struct MoviesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "movies",
    abstract: "Pages through a movie catalog over HTTP (TMDB's discover shape).",
    discussion: """
      Without --api, browse and list start the catalog server embedded in the app on a free \
      loopback port. With --api, they use another server: `movies serve`, or TMDB itself \
      (--api https://api.themoviedb.org/3 --api-key KEY).
      """,
    subcommands: [Browse.self, List.self, Serve.self]
  )
}
