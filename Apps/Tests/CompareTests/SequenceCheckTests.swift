import AppSupport
import CompareKit
import Testing

@Suite struct SequenceCheckTests {
  @Test func identicalSequencesAreIdenticalEverywhere() {
    let runs = [[0, 1, 2], [0, 5]]
    let verdicts = SequenceCheck.compare(
      ["a", "b"],
      [.store: runs, .reactor: runs, .feedback: runs]
    )
    for architecture in Architecture.allCases {
      #expect(verdicts[architecture] == SequenceCheck.Verdict(isIdentical: true))
    }
  }

  @Test func aDifferentStateFailsTheCheck() throws {
    let runs = [[0, 1, 2], [0, 5]]
    let verdicts = SequenceCheck.compare(
      ["a", "b"],
      [.store: runs, .reactor: runs, .feedback: [[0, 1, 2], [0, 6]]]
    )
    let feedback = try #require(verdicts[.feedback])
    #expect(!feedback.isIdentical)
    #expect(feedback.difference == "b: differs from store at state 2")
    // The store and the reactor agree, but not with every architecture.
    #expect(verdicts[.store]?.isIdentical == false)
    #expect(verdicts[.store]?.difference == "b: differs from feedback at state 2")
  }

  @Test func aShorterSequenceFailsTheCheck() {
    let verdicts = SequenceCheck.compare(
      ["a"],
      [.store: [[0, 1, 2]], .reactor: [[0, 1]], .feedback: [[0, 1, 2]]]
    )
    #expect(verdicts[.reactor]?.isIdentical == false)
    #expect(
      verdicts[.reactor]?.difference == "a: differs from store in length (2 states against 3)"
    )
  }
}
