/// A film, as TMDB's discover endpoint lists it.
///
/// Only the facts the app shows: the id, the title, the release date (TMDB's `YYYY-MM-DD`, or
/// just a year), a one-line overview and the average vote.
public struct Movie: Sendable, Equatable, Hashable, Codable, Identifiable {
  /// The catalog's id of the film.
  public var id: Int
  /// The title.
  public var title: String
  /// The release date, `YYYY-MM-DD` or `YYYY`; empty when unknown (as TMDB sends it).
  public var releaseDate: String
  /// A one-line description.
  public var overview: String
  /// The average vote, from 0 to 10.
  public var voteAverage: Double

  /// Creates a film.
  public init(
    id: Int,
    title: String,
    releaseDate: String = "",
    overview: String = "",
    voteAverage: Double = 0
  ) {
    self.id = id
    self.title = title
    self.releaseDate = releaseDate
    self.overview = overview
    self.voteAverage = voteAverage
  }

  /// The release year, if the date has one.
  public var year: Int? { Int(releaseDate.prefix(4)) }

  enum CodingKeys: String, CodingKey {
    case id
    case title
    case releaseDate = "release_date"
    case overview
    case voteAverage = "vote_average"
  }

  /// Decodes a film; `release_date`, `overview` and `vote_average` may be missing or `null`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decodeInteger(forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    releaseDate = try container.decodeIfPresent(String.self, forKey: .releaseDate) ?? ""
    overview = try container.decodeIfPresent(String.self, forKey: .overview) ?? ""
    voteAverage = try container.decodeIfPresent(Double.self, forKey: .voteAverage) ?? 0
  }
}

/// One page of TMDB's `GET /discover/movie`.
///
/// ```json
/// { "page": 1, "total_results": 300, "total_pages": 15, "results": [ … ] }
/// ```
public struct MoviePage: Sendable, Equatable, Codable {
  /// The page number, from 1.
  public var page: Int
  /// How many films the whole listing has.
  public var totalResults: Int
  /// How many pages the whole listing has.
  public var totalPages: Int
  /// The films on this page.
  public var results: [Movie]

  /// Creates a page.
  public init(page: Int, totalResults: Int, totalPages: Int, results: [Movie]) {
    self.page = page
    self.totalResults = totalResults
    self.totalPages = totalPages
    self.results = results
  }

  /// No page yet: page 0 of 0 (the seed's `Results.empty()`).
  public static let empty = MoviePage(page: 0, totalResults: 0, totalPages: 0, results: [])

  enum CodingKeys: String, CodingKey {
    case page
    case totalResults = "total_results"
    case totalPages = "total_pages"
    case results
  }

  /// Decodes a page; a number that is not an integer is a type mismatch at its key.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    page = try container.decodeInteger(forKey: .page)
    totalResults = try container.decodeInteger(forKey: .totalResults)
    totalPages = try container.decodeInteger(forKey: .totalPages)
    results = try container.decode([Movie].self, forKey: .results)
  }
}

extension KeyedDecodingContainer {
  /// The integer at `key`, with the error naming `key` when it is a number that is not one
  /// (`1.5`, `1e30`): Foundation's decoder on Linux throws an error of its own there, which it
  /// reports as data that is not JSON, with no place.
  func decodeInteger(forKey key: Key) throws -> Int {
    do {
      return try decode(Int.self, forKey: key)
    } catch let error where !(error is DecodingError) {
      throw DecodingError.typeMismatch(
        Int.self,
        DecodingError.Context(
          codingPath: codingPath + [key],
          debugDescription: "not an integer",
          underlyingError: error
        )
      )
    }
  }
}
