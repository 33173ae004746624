// swift-format-ignore-file
// Generated from the recording rpg-play-feedback.jsonl (`rpg play`, on the feedback) by
// `cascade-inspect Apps/Tests/Recordings/rpg-play-feedback.jsonl --export-test Apps/Tests/RPGTests/Recorded/RPGPlayFeedbackRecordingTests.swift`
// Do not edit it: make it again from the recording.
import AppSupport
import CascadeFeedback
import CascadeReactor
import CascadeStore
import CascadeTesting
import Testing

@testable import RPGCore

/// `rpg play`, recorded on the feedback, replayed through the exhaustive
/// `TestStore`: one line per record of the recording (its number after `#`), each
/// received input with the change of state it made; the effects answer with their
/// recorded outcomes, each released at the record that holds it.
@Suite struct RPGPlayFeedbackRecordingTests {
  @Test func replaysTheRecordingStepByStep() async throws {
    let effects = try RecordedEffects<RPGCore.GameChange>(json: [
      (record: 62, key: nil, outcome: #"{"saved":{"step":10}}"#),
      (record: 69, key: nil, outcome: #"{"loaded":{"_0":{"defeated":1,"monster":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4},"player":{"attack":5,"hp":18,"inventory":{"gold":3,"potions":1},"level":1,"maxHP":20,"name":"Ada","xp":6},"seed":42,"step":10}}}"#),
    ])
    let start = try RecordedJSON<AppSupport.SessionNoStart>.decode(#"{}"#)
    let service = RPGCore.GameApp.feedback.service(
      RPGCore.GameApp.testEnvironment(start: start, effects: effects)
    )
    let app: any AppService<RPGCore.GameApp.Intent, RPGCore.GameApp.State> = service
    let store = TestStore(loop: service.container)
    let intent = RecordedJSON<RPGCore.GameApp.Intent>.decode
    let input = RecordedJSON<RPGCore.FeedbackGameEvent>.decode
    let patch = StatePatch<RPGCore.FeedbackGameMachine>.apply

    app.send(try intent(#"{"newGame":{"name":"Ada","seed":42}}"#))  // #4
    try await store.receive(input(#"{"intent":{"_0":{"newGame":{"name":"Ada","seed":42}}}}"#), assert: patch(#"{"pending":[{"happened":{"_0":{"gameStarted":{"_0":{"defeated":0,"player":{"attack":5,"hp":20,"inventory":{"gold":0,"potions":2},"level":1,"maxHP":20,"name":"Ada","xp":0},"seed":42,"step":0}}}}}]}"#))  // #5
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":1,"game":{"defeated":0,"player":{"attack":5,"hp":20,"inventory":{"gold":0,"potions":2},"level":1,"maxHP":20,"name":"Ada","xp":0},"seed":42,"step":0},"message":"Ada sets out on an adventure (seed 42)."},"pending":[]}"#))  // #7
    app.send(try intent(#"{"explore":{}}"#))  // #9
    try await store.receive(input(#"{"intent":{"_0":{"explore":{}}}}"#), assert: patch(#"{"pending":[{"happened":{"_0":{"monsterAppeared":{"_0":{"attack":3,"gold":3,"hp":10,"maxHP":10,"name":"Goblin","xp":6}}}}}]}"#))  // #10
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":2,"game":{"monster":{"attack":3,"gold":3,"hp":10,"maxHP":10,"name":"Goblin","xp":6},"step":1},"message":"A Goblin appears! (HP 10, attack 3)"},"pending":[]}"#))  // #12
    app.send(try intent(#"{"attack":{}}"#))  // #14
    try await store.receive(input(#"{"intent":{"_0":{"attack":{}}}}"#), assert: patch(#"{"pending":[{"happened":{"_0":{"playerHit":{"damage":7}}}},{"happened":{"_0":{"monsterHit":{"damage":2}}}}]}"#))  // #15
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":3,"game":{"monster":{"hp":3},"step":2},"message":"Ada hits the Goblin for 7."},"pending":[{"happened":{"_0":{"monsterHit":{"damage":2}}}}]}"#))  // #17
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":4,"game":{"player":{"hp":18},"step":3},"message":"The Goblin hits Ada for 2."},"pending":[]}"#))  // #19
    app.send(try intent(#"{"drinkPotion":{}}"#))  // #21
    try await store.receive(input(#"{"intent":{"_0":{"drinkPotion":{}}}}"#), assert: patch(#"{"pending":[{"happened":{"_0":{"potionDrunk":{"healed":2}}}},{"happened":{"_0":{"monsterHit":{"damage":2}}}}]}"#))  // #22
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":5,"game":{"player":{"hp":20,"inventory":{"potions":1}},"step":4},"message":"Ada drinks a potion and recovers 2 HP."},"pending":[{"happened":{"_0":{"monsterHit":{"damage":2}}}}]}"#))  // #24
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":6,"game":{"player":{"hp":18},"step":5},"message":"The Goblin hits Ada for 2."},"pending":[]}"#))  // #26
    app.send(try intent(#"{"attack":{}}"#))  // #28
    try await store.receive(input(#"{"intent":{"_0":{"attack":{}}}}"#), assert: patch(#"{"pending":[{"happened":{"_0":{"playerHit":{"damage":6}}}},{"happened":{"_0":{"monsterDefeated":{}}}}]}"#))  // #29
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":7,"game":{"monster":{"hp":0},"step":6},"message":"Ada hits the Goblin for 6."},"pending":[{"happened":{"_0":{"monsterDefeated":{}}}}]}"#))  // #31
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":8,"game":{"defeated":1,"monster":null,"player":{"inventory":{"gold":3},"xp":6},"step":7},"message":"The Goblin is defeated! Ada now has 6 XP and 3 gold."},"pending":[]}"#))  // #33
    app.send(try intent(#"{"attack":{}}"#))  // #35
    try await store.receive(input(#"{"intent":{"_0":{"attack":{}}}}"#), assert: patch(#"{"pending":[{"happened":{"_0":{"refused":{"_0":"There is nothing to attack. Explore to find a monster."}}}}]}"#))  // #36
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":9,"message":"There is nothing to attack. Explore to find a monster."},"pending":[]}"#))  // #38
    app.send(try intent(#"{"explore":{}}"#))  // #40
    try await store.receive(input(#"{"intent":{"_0":{"explore":{}}}}"#), assert: patch(#"{"pending":[{"happened":{"_0":{"monsterAppeared":{"_0":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4}}}}}]}"#))  // #41
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":10,"game":{"monster":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4},"step":8},"message":"A Rat appears! (HP 6, attack 2)"},"pending":[]}"#))  // #43
    app.send(try intent(#"{"flee":{}}"#))  // #45
    try await store.receive(input(#"{"intent":{"_0":{"flee":{}}}}"#), assert: patch(#"{"pending":[{"happened":{"_0":{"fleeFailed":{}}}},{"happened":{"_0":{"monsterHit":{"damage":0}}}}]}"#))  // #46
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":11,"game":{"step":9},"message":"Ada tries to flee but cannot get away."},"pending":[{"happened":{"_0":{"monsterHit":{"damage":0}}}}]}"#))  // #48
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":12,"game":{"step":10},"message":"The Rat misses."},"pending":[]}"#))  // #50
    app.send(try intent(#"{"rest":{}}"#))  // #52
    try await store.receive(input(#"{"intent":{"_0":{"rest":{}}}}"#), assert: patch(#"{"pending":[{"happened":{"_0":{"refused":{"_0":"You cannot rest with a Rat in front of you."}}}}]}"#))  // #53
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"changes":13,"message":"You cannot rest with a Rat in front of you."},"pending":[]}"#))  // #55
    app.send(try intent(#"{"save":{"overwrite":false}}"#))  // #57
    try await store.receive(input(#"{"intent":{"_0":{"save":{"overwrite":false}}}}"#), assert: patch(#"{"pending":[{"saveStarted":{"overwrite":false}}]}"#))  // #58
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"activity":{"saving":{"overwrite":false}},"changes":14,"message":"Saving…"},"pending":[]}"#))  // #60
    effects.release(62)
    try await store.receive(input(#"{"finished":{"_0":{"saved":{"step":10}}}}"#), assert: patch(#"{"game":{"activity":null,"changes":15,"message":"Game saved.","savedStep":10}}"#))  // #62
    app.send(try intent(#"{"load":{}}"#))  // #64
    try await store.receive(input(#"{"intent":{"_0":{"load":{}}}}"#), assert: patch(#"{"pending":[{"loadStarted":{}}]}"#))  // #65
    try await store.receive(input(#"{"applyNext":{}}"#), assert: patch(#"{"game":{"activity":{"loading":{}},"changes":16,"message":"Loading…"},"pending":[]}"#))  // #67
    effects.release(69)
    try await store.receive(input(#"{"finished":{"_0":{"loaded":{"_0":{"defeated":1,"monster":{"attack":2,"gold":1,"hp":6,"maxHP":6,"name":"Rat","xp":4},"player":{"attack":5,"hp":18,"inventory":{"gold":3,"potions":1},"level":1,"maxHP":20,"name":"Ada","xp":6},"seed":42,"step":10}}}}}"#), assert: patch(#"{"game":{"activity":null,"changes":17,"message":"Game loaded: Ada, level 1."}}"#))  // #69

    await store.finish()
    #expect(effects.problems == [])
  }
}
