// swift-format-ignore-file
// Generated from the recording rpg-play-reactor.jsonl (`rpg play`, on the reactor) by
// `cascade-inspect Apps/Tests/Recordings/rpg-play-reactor.jsonl --export-test Apps/Tests/RPGTests/Recorded/RPGPlayReactorRecordingTests.swift`
// Do not edit it: make it again from the recording.
import AppSupport
import CascadeFeedback
import CascadeReactor
import CascadeStore
import CascadeTesting
import Testing

@testable import RPGCore

/// `rpg play`, recorded on the reactor, replayed through the exhaustive
/// `TestStore`: one line per record of the recording (its number after `#`), each
/// received input with the change of state it made; the effects answer with their
/// recorded outcomes, each released at the record that holds it.
@Suite struct RPGPlayReactorRecordingTests {
  @Test func replaysTheRecordingStepByStep() async throws {
    let effects = try RecordedEffects<RPGCore.GameChange>(json: [
      (record: 52, key: nil, outcome: #"{"saved":{"step":10}}"#),
      (record: 58, key: nil, outcome: #"{"loaded":{"_0":{"defeated":1,"monster":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4},"player":{"attack":5,"hp":18,"inventory":{"gold":3,"potions":1},"level":1,"maxHP":20,"name":"Ada","xp":6},"seed":42,"step":10}}}"#),
    ])
    let start = try RecordedJSON<AppSupport.SessionNoStart>.decode(#"{}"#)
    let service = RPGCore.GameApp.reactor.service(
      RPGCore.GameApp.testEnvironment(start: start, effects: effects)
    )
    let app: any AppService<RPGCore.GameApp.Intent, RPGCore.GameApp.State> = service
    let store = TestStore(reactor: service.container)
    let intent = RecordedJSON<RPGCore.GameApp.Intent>.decode
    let mutation = RecordedJSON<RPGCore.GameChange>.decode
    let patch = StatePatch<RPGCore.GameState>.apply

    app.send(try intent(#"{"newGame":{"name":"Ada","seed":42}}"#))  // #4
    // #5: the action {"newGame":{"name":"Ada","seed":42}}; its mutations follow
    try await store.receive(mutation(#"{"happened":{"_0":{"gameStarted":{"_0":{"defeated":0,"player":{"attack":5,"hp":20,"inventory":{"gold":0,"potions":2},"level":1,"maxHP":20,"name":"Ada","xp":0},"seed":42,"step":0}}}}}"#), assert: patch(#"{"changes":1,"game":{"defeated":0,"player":{"attack":5,"hp":20,"inventory":{"gold":0,"potions":2},"level":1,"maxHP":20,"name":"Ada","xp":0},"seed":42,"step":0},"message":"Ada sets out on an adventure (seed 42)."}"#))  // #6
    app.send(try intent(#"{"explore":{}}"#))  // #8
    // #9: the action {"explore":{}}; its mutations follow
    try await store.receive(mutation(#"{"happened":{"_0":{"monsterAppeared":{"_0":{"attack":3,"gold":3,"hp":10,"maxHP":10,"name":"Goblin","xp":6}}}}}"#), assert: patch(#"{"changes":2,"game":{"monster":{"attack":3,"gold":3,"hp":10,"maxHP":10,"name":"Goblin","xp":6},"step":1},"message":"A Goblin appears! (HP 10, attack 3)"}"#))  // #10
    app.send(try intent(#"{"attack":{}}"#))  // #12
    // #13: the action {"attack":{}}; its mutations follow
    try await store.receive(mutation(#"{"happened":{"_0":{"playerHit":{"damage":7}}}}"#), assert: patch(#"{"changes":3,"game":{"monster":{"hp":3},"step":2},"message":"Ada hits the Goblin for 7."}"#))  // #14
    try await store.receive(mutation(#"{"happened":{"_0":{"monsterHit":{"damage":2}}}}"#), assert: patch(#"{"changes":4,"game":{"player":{"hp":18},"step":3},"message":"The Goblin hits Ada for 2."}"#))  // #16
    app.send(try intent(#"{"drinkPotion":{}}"#))  // #18
    // #19: the action {"drinkPotion":{}}; its mutations follow
    try await store.receive(mutation(#"{"happened":{"_0":{"potionDrunk":{"healed":2}}}}"#), assert: patch(#"{"changes":5,"game":{"player":{"hp":20,"inventory":{"potions":1}},"step":4},"message":"Ada drinks a potion and recovers 2 HP."}"#))  // #20
    try await store.receive(mutation(#"{"happened":{"_0":{"monsterHit":{"damage":2}}}}"#), assert: patch(#"{"changes":6,"game":{"player":{"hp":18},"step":5},"message":"The Goblin hits Ada for 2."}"#))  // #22
    app.send(try intent(#"{"attack":{}}"#))  // #24
    // #25: the action {"attack":{}}; its mutations follow
    try await store.receive(mutation(#"{"happened":{"_0":{"playerHit":{"damage":6}}}}"#), assert: patch(#"{"changes":7,"game":{"monster":{"hp":0},"step":6},"message":"Ada hits the Goblin for 6."}"#))  // #26
    try await store.receive(mutation(#"{"happened":{"_0":{"monsterDefeated":{}}}}"#), assert: patch(#"{"changes":8,"game":{"defeated":1,"monster":null,"player":{"inventory":{"gold":3},"xp":6},"step":7},"message":"The Goblin is defeated! Ada now has 6 XP and 3 gold."}"#))  // #28
    app.send(try intent(#"{"attack":{}}"#))  // #30
    // #31: the action {"attack":{}}; its mutations follow
    try await store.receive(mutation(#"{"happened":{"_0":{"refused":{"_0":"There is nothing to attack. Explore to find a monster."}}}}"#), assert: patch(#"{"changes":9,"message":"There is nothing to attack. Explore to find a monster."}"#))  // #32
    app.send(try intent(#"{"explore":{}}"#))  // #34
    // #35: the action {"explore":{}}; its mutations follow
    try await store.receive(mutation(#"{"happened":{"_0":{"monsterAppeared":{"_0":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4}}}}}"#), assert: patch(#"{"changes":10,"game":{"monster":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4},"step":8},"message":"A Rat appears! (HP 6, attack 2)"}"#))  // #36
    app.send(try intent(#"{"flee":{}}"#))  // #38
    // #39: the action {"flee":{}}; its mutations follow
    try await store.receive(mutation(#"{"happened":{"_0":{"fleeFailed":{}}}}"#), assert: patch(#"{"changes":11,"game":{"step":9},"message":"Ada tries to flee but cannot get away."}"#))  // #40
    try await store.receive(mutation(#"{"happened":{"_0":{"monsterHit":{"damage":0}}}}"#), assert: patch(#"{"changes":12,"game":{"step":10},"message":"The Rat misses."}"#))  // #42
    app.send(try intent(#"{"rest":{}}"#))  // #44
    // #45: the action {"rest":{}}; its mutations follow
    try await store.receive(mutation(#"{"happened":{"_0":{"refused":{"_0":"You cannot rest with a Rat in front of you."}}}}"#), assert: patch(#"{"changes":13,"message":"You cannot rest with a Rat in front of you."}"#))  // #46
    app.send(try intent(#"{"save":{"overwrite":false}}"#))  // #48
    // #49: the action {"save":{"overwrite":false}}; its mutations follow
    try await store.receive(mutation(#"{"saveStarted":{"overwrite":false}}"#), assert: patch(#"{"activity":{"saving":{"overwrite":false}},"changes":14,"message":"Saving…"}"#))  // #50
    effects.release(52)
    try await store.receive(mutation(#"{"saved":{"step":10}}"#), assert: patch(#"{"activity":null,"changes":15,"message":"Game saved.","savedStep":10}"#))  // #52
    app.send(try intent(#"{"load":{}}"#))  // #54
    // #55: the action {"load":{}}; its mutations follow
    try await store.receive(mutation(#"{"loadStarted":{}}"#), assert: patch(#"{"activity":{"loading":{}},"changes":16,"message":"Loading…"}"#))  // #56
    effects.release(58)
    try await store.receive(mutation(#"{"loaded":{"_0":{"defeated":1,"monster":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4},"player":{"attack":5,"hp":18,"inventory":{"gold":3,"potions":1},"level":1,"maxHP":20,"name":"Ada","xp":6},"seed":42,"step":10}}}"#), assert: patch(#"{"activity":null,"changes":17,"message":"Game loaded: Ada, level 1."}"#))  // #58

    await store.finish()
    #expect(effects.problems == [])
  }
}
