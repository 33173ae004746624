import Foundation
import MoviesCore
import MoviesServer
import Testing

/// The catalogs a server lists: the one that ships with the app, and users' JSON and CSV files.
@Suite struct MovieCatalogTests {
  @Test func theBundledCatalogHoldsAFewHundredFilms() throws {
    let catalog = try MovieCatalog.bundled()
    #expect(catalog.movies.count >= 300)
    #expect(Set(catalog.movies.map(\.id)).count == catalog.movies.count)
    #expect(
      catalog.movies.allSatisfy { !$0.title.isEmpty && $0.year != nil && !$0.overview.isEmpty }
    )
    #expect(catalog.totalPages == (catalog.movies.count + 19) / 20)
  }

  @Test func cutsPages() {
    let catalog = MovieCatalog.small
    #expect(catalog.page(1).results.count == 20)
    #expect(catalog.page(3).results.map(\.id) == Array(41...45))
    #expect(catalog.page(4).results.isEmpty)
    #expect(catalog.page(4).totalPages == 3)
  }

  /// A temporary directory, removed afterwards.
  func withDirectory(_ body: (URL) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("movies-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory)
  }

  @Test func readsCSV() throws {
    try withDirectory { directory in
      let file = directory.appendingPathComponent("films.csv")
      let csv = """
        id,title,release_date,overview,vote_average
        7,"Crouching Tiger, Hidden Dragon",2000,"A ""stolen"" sword.",7.4
        8,Heat,1995,"Two lines,
        one field",

        """
      try Data(csv.utf8).write(to: file)
      let catalog = try MovieCatalog.load(contentsOf: file)
      #expect(
        catalog.movies == [
          Movie(
            id: 7,
            title: "Crouching Tiger, Hidden Dragon",
            releaseDate: "2000",
            overview: "A \"stolen\" sword.",
            voteAverage: 7.4
          ),
          Movie(id: 8, title: "Heat", releaseDate: "1995", overview: "Two lines,\none field"),
        ]
      )
    }
  }

  @Test func namesTheLineOfMalformedCSV() throws {
    try withDirectory { directory in
      let file = directory.appendingPathComponent("films.csv")
      try Data("id,title,release_date,overview,vote_average\n1,A,2000,x,7\ntwo,B,2001,y,6\n".utf8)
        .write(to: file)
      #expect(throws: CatalogError(file: file.path, line: 3, reason: "id 'two' is not a number")) {
        try MovieCatalog.load(contentsOf: file)
      }
      try Data("title,id\n".utf8).write(to: file)
      #expect(throws: CatalogError.self) { try MovieCatalog.load(contentsOf: file) }
    }
  }

  @Test func readsJSONAndRefusesOtherJSON() throws {
    try withDirectory { directory in
      let file = directory.appendingPathComponent("films.json")
      try Data(#"[{"id": 1, "title": "Alien", "release_date": "1979"}]"#.utf8).write(to: file)
      #expect(
        try MovieCatalog.load(contentsOf: file).movies == [
          Movie(id: 1, title: "Alien", releaseDate: "1979")
        ]
      )
      for (json, reason) in [
        (#"{"films": []}"#, "is not a JSON array of films: the top level is not an array"),
        (#"[{"id": 1, "title": "A"}, {"id": 2}]"#, "film 2 has no 'title'"),
        (#"[{"id": "one", "title": "A"}]"#, "film 1: 'id' is not a whole number"),
        (
          #"[{"id": 1, "title": "A", "vote_average": "high"}]"#,
          "film 1: 'vote_average' is not a number"
        ),
        (#"[{"id": 1, "title": "#, "is not valid JSON"),
      ] {
        try Data(json.utf8).write(to: file)
        #expect(throws: CatalogError(file: file.path, line: nil, reason: reason)) {
          try MovieCatalog.load(contentsOf: file)
        }
      }
      let missing = directory.appendingPathComponent("missing.json")
      #expect(
        throws: CatalogError(
          file: missing.path,
          line: nil,
          reason: "there is no such file",
          unreadable: true
        )
      ) {
        try MovieCatalog.load(contentsOf: missing)
      }
    }
  }
}
