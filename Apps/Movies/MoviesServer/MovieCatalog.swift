import AppSupport
public import Foundation
public import MoviesCore

/// The films a catalog server lists, in order, and how it cuts them into pages.
///
/// The catalog that ships with the app (``bundled()``) holds about 300 real films — facts only:
/// title, year, a one-line description written for this project, an approximate average vote.
/// A user's own catalog is a JSON array of films or a CSV file (``load(contentsOf:)``).
public struct MovieCatalog: Sendable, Equatable {
  /// The films, in the order they are listed.
  public var movies: [Movie]
  /// How many films a page holds (TMDB: 20).
  public var pageSize: Int

  /// Creates a catalog.
  public init(movies: [Movie], pageSize: Int = 20) {
    self.movies = movies
    self.pageSize = max(1, pageSize)
  }

  /// How many pages the catalog has.
  public var totalPages: Int { (movies.count + pageSize - 1) / pageSize }

  /// Page `number` (from 1); a page past the end is empty, as TMDB's are.
  public func page(_ number: Int) -> MoviePage {
    let start = (number - 1) * pageSize
    let results =
      start >= 0 && start < movies.count
      ? Array(movies[start..<min(start + pageSize, movies.count)]) : []
    return MoviePage(
      page: number,
      totalResults: movies.count,
      totalPages: totalPages,
      results: results
    )
  }

  /// The catalog that ships with the app.
  ///
  /// - Throws: ``CatalogError`` if the resource is missing or unreadable (a broken build).
  public static func bundled() throws(CatalogError) -> MovieCatalog {
    guard let url = Bundle.module.url(forResource: "catalog", withExtension: "json") else {
      throw CatalogError(file: "catalog.json", line: nil, reason: "missing from the app's bundle")
    }
    return try load(contentsOf: url)
  }

  /// Loads a catalog file: a JSON array of films (`.json`, TMDB's field names) or CSV (any other
  /// extension) with the header `id,title,release_date,overview,vote_average`.
  ///
  /// - Throws: ``CatalogError`` naming the file, and the line for CSV, when it cannot be read or
  ///   is malformed.
  public static func load(
    contentsOf url: URL,
    pageSize: Int = 20
  ) throws(CatalogError)
    -> MovieCatalog
  {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw CatalogError(
        file: url.path,
        line: nil,
        reason: "there is no such file",
        unreadable: true
      )
    }
    guard !isDirectory.boolValue else {
      throw CatalogError(file: url.path, line: nil, reason: "is a directory", unreadable: true)
    }
    let data: Data
    do {
      data = try SafeFile.read(url.path)
    } catch {
      let reason = error.kind == .notRegularFile ? "is not a regular file" : "cannot be read"
      throw CatalogError(file: url.path, line: nil, reason: reason, unreadable: true)
    }
    if url.pathExtension.lowercased() == "json" {
      return try decodeJSON(data, file: url.path, pageSize: pageSize)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw CatalogError(file: url.path, line: nil, reason: "is not UTF-8 text")
    }
    return try decodeCSV(text, file: url.path, pageSize: pageSize)
  }

  /// Decodes a JSON array of films.
  static func decodeJSON(
    _ data: Data,
    file: String,
    pageSize: Int
  ) throws(CatalogError)
    -> MovieCatalog
  {
    do {
      return MovieCatalog(
        movies: try JSONDecoder().decode([Movie].self, from: data),
        pageSize: pageSize
      )
    } catch {
      throw CatalogError(file: file, line: nil, reason: describe(error, in: data))
    }
  }

  /// What is wrong with a JSON catalog, in a few words: where, and what.
  static func describe(_ error: any Error, in data: Data) -> String {
    guard let error = error as? DecodingError else { return "is not a JSON array of films" }
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      if String(validating: data, as: UTF8.self) == nil { return "is not UTF-8 text" }
      return "is not valid JSON"
    case .typeMismatch(_, let context) where context.codingPath.isEmpty:
      return "is not a JSON array of films: the top level is not an array"
    case .keyNotFound(let key, let context):
      return "\(film(context.codingPath)) has no '\(key.stringValue)'"
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      let kind =
        type == String.self
        ? "a string"
        : type == Int.self
          ? "a whole number"
          : type == Double.self ? "a number" : "of the right type"
      return "\(film(context.codingPath)): '\(context.codingPath.last?.stringValue ?? "")' is "
        + "not \(kind)"
    case .dataCorrupted(let context):
      return "\(film(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "is not a JSON array of films"
    }
  }

  /// `film 3`: the film a coding path is in (from 1), or `a film` without one.
  private static func film(_ path: [any CodingKey]) -> String {
    guard let index = path.first?.intValue else { return "a film" }
    return "film \(index + 1)"
  }

  /// Decodes CSV with the header `id,title,release_date,overview,vote_average`.
  static func decodeCSV(
    _ text: String,
    file: String,
    pageSize: Int
  ) throws(CatalogError)
    -> MovieCatalog
  {
    let rows = CSV.rows(text)
    let expected = ["id", "title", "release_date", "overview", "vote_average"]
    guard let header = rows.first,
      header.fields.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) == expected
    else {
      throw CatalogError(
        file: file,
        line: 1,
        reason: "the header must be \(expected.joined(separator: ","))"
      )
    }
    var movies: [Movie] = []
    for row in rows.dropFirst() where row.fields != [""] {
      let fields = row.fields
      guard fields.count == 5 else {
        throw CatalogError(
          file: file,
          line: row.line,
          reason: "expected 5 fields, got \(fields.count)"
        )
      }
      guard let id = Int(fields[0].trimmingCharacters(in: .whitespaces)) else {
        throw CatalogError(file: file, line: row.line, reason: "id '\(fields[0])' is not a number")
      }
      let vote = fields[4].trimmingCharacters(in: .whitespaces)
      guard let voteAverage = vote.isEmpty ? 0 : Double(vote) else {
        throw CatalogError(
          file: file,
          line: row.line,
          reason: "vote_average '\(vote)' is not a number"
        )
      }
      movies.append(
        Movie(
          id: id,
          title: fields[1],
          releaseDate: fields[2],
          overview: fields[3],
          voteAverage: voteAverage
        )
      )
    }
    return MovieCatalog(movies: movies, pageSize: pageSize)
  }
}

/// A catalog file that cannot be used, and why.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file.
  public var file: String
  /// The line (from 1), for CSV.
  public var line: Int?
  /// What is wrong.
  public var reason: String
  /// Whether the file is missing or cannot be read (rather than not a catalog).
  public var isUnreadable: Bool

  /// Creates an error.
  public init(file: String, line: Int?, reason: String, unreadable: Bool = false) {
    self.file = file
    self.line = line
    self.reason = reason
    self.isUnreadable = unreadable
  }

  /// The file, the line and what is wrong.
  public var description: String {
    if let line { return "catalog \(file), line \(line): \(reason)" }
    return "catalog \(file): \(reason)"
  }
}

/// A small RFC 4180 reader: commas, quoted fields with `""` escapes and line breaks.
enum CSV {
  struct Row: Equatable {
    var line: Int
    var fields: [String]
  }

  static func rows(_ text: String) -> [Row] {
    var rows: [Row] = []
    var fields: [String] = []
    var field = ""
    var quoted = false
    var line = 1
    var rowLine = 1
    var characters = Array(text).makeIterator()
    var pending: Character? = nil
    while let character = pending ?? characters.next() {
      pending = nil
      if quoted {
        if character == "\"" {
          let next = characters.next()
          if next == "\"" {
            field.append("\"")
          } else {
            quoted = false
            pending = next
          }
        } else {
          if character == "\n" || character == "\r\n" { line += 1 }
          field.append(character)
        }
        continue
      }
      switch character {
      case "\"": quoted = true
      case ",":
        fields.append(field)
        field = ""
      case "\n", "\r\n", "\r":
        fields.append(field)
        rows.append(Row(line: rowLine, fields: fields))
        fields = []
        field = ""
        line += 1
        rowLine = line
      default: field.append(character)
      }
    }
    if !field.isEmpty || !fields.isEmpty {
      fields.append(field)
      rows.append(Row(line: rowLine, fields: fields))
    }
    return rows
  }
}
