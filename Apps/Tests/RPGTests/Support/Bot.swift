import AppScenarios

/// The game bot the scenarios share with `cascade-compare` (AppScenarios): it plays the pure rules
/// to find intents that lead somewhere (level 3, death) without hard-coding dice rolls.
typealias Bot = GameBot
