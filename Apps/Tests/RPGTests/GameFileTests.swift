import AppScenarios
import Foundation
import RPGCore
import Testing

@Suite struct GameFileTests {
  @Test func aSavedGameReadsBackEqual() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = GameFile(url: directory.file("nested/dir/save.json"))
    let game = try #require(Bot.simulate([.newGame(name: "Ada", seed: 4), .explore]).game)
    try file.write(game, overwrite: false)
    #expect(try file.read() == game)
    // Only the save is left: the temporary file was renamed over it.
    let names = try FileManager.default.contentsOfDirectory(
      atPath: directory.file("nested/dir").path
    )
    #expect(names == ["save.json"])
  }

  @Test func aMissingFileIsReportedAsMissing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect(throws: SaveError.missing) { try GameFile(url: directory.file("none.json")).read() }
  }

  @Test(arguments: ["", "null", "{", #"{"version": 1}"#, #"{"version": "one"}"#, "[1, 2]"])
  func unreadableFilesAreCorruptAndKept(_ content: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("save.json")
    try Data(content.utf8).write(to: url)
    let file = GameFile(url: url)
    #expect {
      try file.read()
    } throws: { error in
      if case .corrupt = error as? SaveError { true } else { false }
    }
    #expect {
      try file.write(Game(name: "Ada", seed: 1), overwrite: false)
    } throws: { error in
      if case .corrupt = error as? SaveError { true } else { false }
    }
    #expect(try String(contentsOf: url, encoding: .utf8) == content)
    try file.write(Game(name: "Ada", seed: 1), overwrite: true)
    #expect(try file.read() == Game(name: "Ada", seed: 1))
  }

  @Test func aNewerVersionIsReportedAndKept() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("save.json")
    let content = #"{"version": 2, "game": {}}"#
    try Data(content.utf8).write(to: url)
    let file = GameFile(url: url)
    #expect(throws: SaveError.newerVersion(found: 2, supported: 1)) { try file.read() }
    #expect(throws: SaveError.newerVersion(found: 2, supported: 1)) {
      try file.write(Game(name: "Ada", seed: 1), overwrite: false)
    }
    #expect(try String(contentsOf: url, encoding: .utf8) == content)
  }

  @Test func anUnwritableDirectoryIsAnIOError() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // A file where the directory should be.
    try Data("x".utf8).write(to: directory.file("blocker"))
    let file = GameFile(url: directory.file("blocker/save.json"))
    #expect {
      try file.write(Game(name: "Ada", seed: 1), overwrite: false)
    } throws: { error in
      if case .io = error as? SaveError { true } else { false }
    }
  }

  @Test func theDefaultFileFollowsXDG() {
    #expect(
      GameFile.defaultURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ada"]).path
        == "/data/cascade/rpg/save.json"
    )
    #expect(
      GameFile.defaultURL(environment: ["HOME": "/home/ada"]).path
        == "/home/ada/.local/share/cascade/rpg/save.json"
    )
  }
}
