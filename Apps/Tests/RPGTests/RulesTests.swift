import AppScenarios
import AppSupport
import RPGCore
import Testing

@Suite struct RulesTests {
  @Test func splitMix64IsReproducibleAndMatchesTheReference() {
    var generator = SplitMix64(seed: 0)
    // The reference SplitMix64 sequence for seed 0.
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    var first = SplitMix64(seed: 42)
    var second = SplitMix64(seed: 42)
    #expect((0..<100).map { _ in first.roll(1...6) } == (0..<100).map { _ in second.roll(1...6) })
  }

  @Test func rollsStayInRangeAndCoverIt() {
    var generator = SplitMix64(seed: 9)
    let rolls = (0..<1_000).map { _ in generator.roll(-2...1) }
    #expect(Set(rolls) == [-2, -1, 0, 1])
  }

  @Test func spawnsGetStrongerWithLevel() {
    var dice = SplitMix64(seed: 1)
    let levelOne = Set((0..<200).map { _ in Rules.spawn(level: 1, dice: &dice).name })
    #expect(levelOne == ["Rat", "Goblin"])
    let levelNine = Set((0..<200).map { _ in Rules.spawn(level: 9, dice: &dice).name })
    #expect(levelNine == Set(Monster.roster.map(\.name)))
  }

  @Test func theSameSeedAndIntentsGiveTheSameGame() {
    let intents: [GameIntent] = [.newGame(name: "Ada", seed: 99), .explore, .attack, .attack]
    #expect(Bot.simulate(intents) == Bot.simulate(intents))
    let other = Bot.simulate([.newGame(name: "Ada", seed: 100), .explore, .attack, .attack])
    #expect(other.game?.seed == 100)
  }

  @Test func defeatingAMonsterGivesItsExperienceAndGold() {
    var game = Game(name: "Ada", seed: 1)
    game.apply(.monsterAppeared(Monster(name: "Rat", hp: 1, attack: 1, xp: 4, gold: 2)))
    let events = Rules.resolve(.attack, in: game)
    #expect(events == [.playerHit(damage: events.first.flatMap(\.damage) ?? 0), .monsterDefeated])
    for event in events { game.apply(event) }
    #expect(game.player.xp == 4)
    #expect(game.player.inventory.gold == 2)
    #expect(game.monster == nil)
    #expect(game.defeated == 1)
  }

  @Test func enoughExperienceLevelsUpOnceOrMore() {
    var game = Game(name: "Ada", seed: 1)
    game.player.xp = 25
    game.apply(.monsterAppeared(Monster(name: "Rat", hp: 1, attack: 1, xp: 10, gold: 0)))
    let events = Rules.resolve(.attack, in: game)
    // 35 XP: 10 for level 2, 20 for level 3, 5 left.
    #expect(events.suffix(2) == [.leveledUp(level: 2), .leveledUp(level: 3)])
    for event in events { game.apply(event) }
    #expect(game.player.level == 3)
    #expect(game.player.xp == 5)
    #expect(game.player.hp == game.player.maxHP)
    #expect(game.player.maxHP == 30)
    #expect(game.player.attack == 9)
    #expect(game.player.inventory.potions == 4)
  }

  @Test func aMonsterThatSurvivesHitsBackAndCanKill() {
    var game = Game(name: "Ada", seed: 1)
    game.player.hp = 1
    game.apply(.monsterAppeared(Monster(name: "Troll", hp: 100, attack: 50, xp: 1, gold: 0)))
    let events = Rules.resolve(.attack, in: game)
    #expect(events.count == 3)
    #expect(events.last == .died)
    for event in events { game.apply(event) }
    #expect(game.isOver)
    #expect(game.player.hp == 0)
    #expect(Rules.resolve(.explore, in: game).count == 1)
    guard case .refused = Rules.resolve(.explore, in: game).first else {
      Issue.record("a dead player cannot explore")
      return
    }
  }

  @Test func potionsHealUpToTheMaximum() {
    var game = Game(name: "Ada", seed: 1)
    game.player.hp = 15
    let events = Rules.resolve(.drinkPotion, in: game)
    #expect(events == [.potionDrunk(healed: 5)])
    for event in events { game.apply(event) }
    #expect(game.player.hp == 20)
    #expect(game.player.inventory.potions == 1)
    game.player.inventory.potions = 0
    game.player.hp = 3
    #expect(Rules.resolve(.drinkPotion, in: game) == [.refused("You have no potions left.")])
  }

  @Test func restingNeedsPeaceAndHealsHalf() {
    var game = Game(name: "Ada", seed: 1)
    #expect(Rules.resolve(.rest, in: game) == [.refused("You are already at full health.")])
    game.player.hp = 2
    let events = Rules.resolve(.rest, in: game)
    #expect(events.first == .rested(healed: 10))
    game.apply(.monsterAppeared(Monster.roster[0]))
    #expect(
      Rules.resolve(.rest, in: game) == [.refused("You cannot rest with a Rat in front of you.")]
    )
  }

  @Test func fleeingEndsTheFightOrCostsAHit() {
    var fled = 0
    var failed = 0
    for seed in 0..<200 as Range<UInt64> {
      var game = Game(name: "Ada", seed: seed)
      game.apply(.monsterAppeared(Monster.roster[1]))
      let events = Rules.resolve(.flee, in: game)
      switch events.first {
      case .fled: fled += 1
      case .fleeFailed:
        failed += 1
        if case .monsterHit = events.dropFirst().first {} else { Issue.record("no hit back") }
      default: Issue.record("unexpected \(events)")
      }
    }
    #expect(fled > 0 && failed > 0)
    #expect(
      Rules.resolve(.flee, in: Game(name: "Ada", seed: 1)) == [
        .refused("There is nothing to flee from.")
      ]
    )
  }

  @Test(arguments: [
    GameIntent.newGame(name: "Ada", seed: 1), .explore, .attack, .drinkPotion, .rest, .flee,
    .save(overwrite: false), .save(overwrite: true), .load,
  ])
  func everyIntentMakesAtLeastOneChange(_ intent: GameIntent) {
    // Fronts rely on it to know an intent was processed.
    let states = [
      GameState(),
      Bot.simulate([.newGame(name: "Ada", seed: 1)]),
      Bot.simulate([.newGame(name: "Ada", seed: 1), .explore]),
    ]
    for state in states {
      #expect(!Rules.changes(for: intent, in: state).isEmpty)
    }
  }

  @Test func busyServicesRefuseAnotherSaveOrLoad() {
    var state = Bot.simulate([.newGame(name: "Ada", seed: 1)])
    state.apply(.saveStarted(overwrite: false))
    #expect(state.isSaving && state.isBusy)
    for intent in [GameIntent.save(overwrite: false), .load] {
      guard case .refused = Rules.changes(for: intent, in: state).first else {
        Issue.record("\(intent) while saving was not refused")
        continue
      }
    }
  }
}

extension GameEvent {
  fileprivate var damage: Int? {
    if case .playerHit(let damage) = self { damage } else { nil }
  }
}
