/// A mistake a person can fix (an unknown team, a missing file), told in one sentence.
public struct WorldCupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
