// Spellings CascadeMiddleware replaced, kept so that code written against an earlier release
// compiles, with a warning that names the new one. Each is removed in a later major release.

extension TimeTravel {
  /// Creates a time travel: ``init(initialState:inputs:reduce:)``, whose label is the one every
  /// architecture's initializer has.
  @available(*, deprecated, renamed: "init(initialState:inputs:reduce:)")
  public init(
    initial: State,
    inputs: some Sequence<Input>,
    reduce: (inout State, Input) throws -> Void
  ) rethrows {
    try self.init(initialState: initial, inputs: inputs, reduce: reduce)
  }
}
