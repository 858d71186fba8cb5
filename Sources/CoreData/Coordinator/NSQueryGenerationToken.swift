/// Names a query generation: a fixed version of a store's data that a context can read from
/// while other contexts and processes keep saving (Apple's "query generations").
///
/// `NSQueryGenerationToken.current` asks to pin a context to whatever is current when it
/// next reads; the token of a pinned context (`queryGenerationToken`) names its generation,
/// and pinning another context with it lets both read the same data.
///
/// For example:
/// ```swift
/// try context.setQueryGenerationFrom(.current)
/// let snapshot = try context.fetch(request)   // later saves elsewhere do not show
/// ```
public final class NSQueryGenerationToken: NSObject, NSCopying, @unchecked Sendable {
    /// The pinned generation; nil for `current`, which means "the latest, when next read".
    let generation: QueryGeneration?

    init(generation: QueryGeneration?) {
        self.generation = generation
        super.init()
    }

    /// Pins a context to the store's data as of its next read.
    public static let current = NSQueryGenerationToken(generation: nil)

    /// The token itself: tokens are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Two tokens are equal when they name the same generation.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSQueryGenerationToken else { return false }
        return generation === other.generation
    }

    /// A hash of the generation named, consistent with `isEqual(_:)`.
    public override var hash: Int { generation.map { ObjectIdentifier($0).hashValue } ?? 0 }

    /// The generation's label, or `current`, for logs.
    public override var description: String {
        generation.map { "<NSQueryGenerationToken \($0.label)>" } ?? "<NSQueryGenerationToken current>"
    }
}
