import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Testing

@Suite(.checksResources)
struct TimeTravelTests {
  let ops: [Op] = [.add(3), .multiply(4), .note("n"), .add(-2), .reset, .add(7)]

  @Test func stepsForwardAndBackThroughEveryState() {
    var travel = TimeTravel(initialState: Tally(), inputs: ops) { state, op in state.apply(op) }

    #expect(travel.count == 6)
    #expect(travel.isAtStart)
    #expect(travel.input == nil)
    #expect(travel.state == Tally())
    let movedBackFromStart = travel.stepBack()
    #expect(!movedBackFromStart)

    let movedForward = travel.stepForward()
    #expect(movedForward)
    #expect(travel.input == .add(3))
    #expect(travel.state.value == 3)
    travel.stepForward()
    #expect(travel.state.value == 12)
    travel.stepBack()
    #expect(travel.state.value == 3)

    travel.jump(to: 4)
    #expect(travel.input == .add(-2))
    #expect(travel.state == Tally(value: 10, notes: ["n"], steps: 4))

    travel.fastForward()
    #expect(travel.isAtEnd)
    #expect(travel.state.value == 7)
    let movedForwardFromEnd = travel.stepForward()
    #expect(!movedForwardFromEnd)

    travel.jump(to: 99)
    #expect(travel.position == 6)
    travel.jump(to: -1)
    #expect(travel.position == 0)
    travel.jump(to: 5)
    travel.rewind()
    #expect(travel.state == Tally())
    #expect(travel.states.map(\.value) == [0, 3, 12, 12, 10, 0, 7])
  }

  @Test(arguments: Arch.allCases)
  func drivesAFreshArchitectureThroughARecording(_ arch: Arch) {
    let buffer = RecordingBuffer()
    let original = Running.make(arch, middlewares: [RecordingMiddleware(buffer: buffer)])
    for op in ops { original.send(op) }

    let recording = buffer.recording(of: Op.self)
    let fresh = Running.make(arch)
    var travel = TimeTravel(inputs: recording.inputs, send: fresh.send, currentState: fresh.state)
    let reduced = TimeTravel(initialState: Tally(), inputs: recording.inputs) { $0.apply($1) }

    #expect(travel.states == reduced.states)
    travel.fastForward()
    #expect(travel.state == original.state())
  }
}
