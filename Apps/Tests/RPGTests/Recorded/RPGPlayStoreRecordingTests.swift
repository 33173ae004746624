// swift-format-ignore-file
// Generated from the recording rpg-play-store.jsonl (`rpg play`, on the store) by
// `cascade-inspect Apps/Tests/Recordings/rpg-play-store.jsonl --export-test Apps/Tests/RPGTests/Recorded/RPGPlayStoreRecordingTests.swift`
// Do not edit it: make it again from the recording.
import AppSupport
import CascadeFeedback
import CascadeReactor
import CascadeStore
import CascadeTesting
import Testing

@testable import RPGCore

/// `rpg play`, recorded on the store, replayed through the exhaustive
/// `TestStore`: one line per record of the recording (its number after `#`), each
/// received input with the change of state it made; the effects answer with their
/// recorded outcomes, each released at the record that holds it.
@Suite struct RPGPlayStoreRecordingTests {
  @Test func replaysTheRecordingStepByStep() async throws {
    let effects = try RecordedEffects<RPGCore.GameChange>(json: [
      (record: 42, key: nil, outcome: #"{"saved":{"step":10}}"#),
      (record: 47, key: nil, outcome: #"{"loaded":{"_0":{"defeated":1,"monster":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4},"player":{"attack":5,"hp":18,"inventory":{"gold":3,"potions":1},"level":1,"maxHP":20,"name":"Ada","xp":6},"seed":42,"step":10}}}"#),
    ])
    let start = try RecordedJSON<AppSupport.SessionNoStart>.decode(#"{}"#)
    let service = RPGCore.GameApp.store.service(
      RPGCore.GameApp.testEnvironment(start: start, effects: effects)
    )
    let app: any AppService<RPGCore.GameApp.Intent, RPGCore.GameApp.State> = service
    let store = TestStore(service.container)
    let intent = RecordedJSON<RPGCore.GameApp.Intent>.decode
    let input = RecordedJSON<RPGCore.StoreGameEvent>.decode
    let patch = StatePatch<RPGCore.GameState>.apply

    app.send(try intent(#"{"newGame":{"name":"Ada","seed":42}}"#))  // #4
    try await store.receive(input(#"{"addPlayer":{"_0":{"defeated":0,"player":{"attack":5,"hp":20,"inventory":{"gold":0,"potions":2},"level":1,"maxHP":20,"name":"Ada","xp":0},"seed":42,"step":0}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":1,"game":{"defeated":0,"player":{"attack":5,"hp":20,"inventory":{"gold":0,"potions":2},"level":1,"maxHP":20,"name":"Ada","xp":0},"seed":42,"step":0},"message":"Ada sets out on an adventure (seed 42)."}"#))  // #5
    app.send(try intent(#"{"explore":{}}"#))  // #7
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"monsterAppeared":{"_0":{"attack":3,"gold":3,"hp":10,"maxHP":10,"name":"Goblin","xp":6}}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":2,"game":{"monster":{"attack":3,"gold":3,"hp":10,"maxHP":10,"name":"Goblin","xp":6},"step":1},"message":"A Goblin appears! (HP 10, attack 3)"}"#))  // #8
    app.send(try intent(#"{"attack":{}}"#))  // #10
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"playerHit":{"damage":7}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":3,"game":{"monster":{"hp":3},"step":2},"message":"Ada hits the Goblin for 7."}"#))  // #11
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"monsterHit":{"damage":2}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":4,"game":{"player":{"hp":18},"step":3},"message":"The Goblin hits Ada for 2."}"#))  // #13
    app.send(try intent(#"{"drinkPotion":{}}"#))  // #15
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"potionDrunk":{"healed":2}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":5,"game":{"player":{"hp":20,"inventory":{"potions":1}},"step":4},"message":"Ada drinks a potion and recovers 2 HP."}"#))  // #16
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"monsterHit":{"damage":2}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":6,"game":{"player":{"hp":18},"step":5},"message":"The Goblin hits Ada for 2."}"#))  // #18
    app.send(try intent(#"{"attack":{}}"#))  // #20
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"playerHit":{"damage":6}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":7,"game":{"monster":{"hp":0},"step":6},"message":"Ada hits the Goblin for 6."}"#))  // #21
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"monsterDefeated":{}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":8,"game":{"defeated":1,"monster":null,"player":{"inventory":{"gold":3},"xp":6},"step":7},"message":"The Goblin is defeated! Ada now has 6 XP and 3 gold."}"#))  // #23
    app.send(try intent(#"{"attack":{}}"#))  // #25
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"refused":{"_0":"There is nothing to attack. Explore to find a monster."}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":9,"message":"There is nothing to attack. Explore to find a monster."}"#))  // #26
    app.send(try intent(#"{"explore":{}}"#))  // #28
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"monsterAppeared":{"_0":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4}}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":10,"game":{"monster":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4},"step":8},"message":"A Rat appears! (HP 6, attack 2)"}"#))  // #29
    app.send(try intent(#"{"flee":{}}"#))  // #31
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"fleeFailed":{}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":11,"game":{"step":9},"message":"Ada tries to flee but cannot get away."}"#))  // #32
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"monsterHit":{"damage":0}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":12,"game":{"step":10},"message":"The Rat misses."}"#))  // #34
    app.send(try intent(#"{"rest":{}}"#))  // #36
    try await store.receive(input(#"{"changed":{"_0":{"happened":{"_0":{"refused":{"_0":"You cannot rest with a Rat in front of you."}}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"changes":13,"message":"You cannot rest with a Rat in front of you."}"#))  // #37
    app.send(try intent(#"{"save":{"overwrite":false}}"#))  // #39
    try await store.receive(input(#"{"changed":{"_0":{"saveStarted":{"overwrite":false}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"activity":{"saving":{"overwrite":false}},"changes":14,"message":"Saving…"}"#))  // #40
    effects.release(42)
    try await store.receive(input(#"{"changed":{"_0":{"saved":{"step":10}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"activity":null,"changes":15,"message":"Game saved.","savedStep":10}"#))  // #42
    app.send(try intent(#"{"load":{}}"#))  // #44
    try await store.receive(input(#"{"changed":{"_0":{"loadStarted":{}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"activity":{"loading":{}},"changes":16,"message":"Loading…"}"#))  // #45
    effects.release(47)
    try await store.receive(input(#"{"changed":{"_0":{"loaded":{"_0":{"defeated":1,"monster":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4},"player":{"attack":5,"hp":18,"inventory":{"gold":3,"potions":1},"level":1,"maxHP":20,"name":"Ada","xp":6},"seed":42,"step":10}}}}}"#), as: RPGCore.GameApp.store.recorded, assert: patch(#"{"activity":null,"changes":17,"message":"Game loaded: Ada, level 1."}"#))  // #47

    await store.finish()
    #expect(effects.problems == [])
  }
}
