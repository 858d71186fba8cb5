/// What values of another module stand for in a predicate: SwiftData's `@Model` instances
/// stand for their managed objects, its persistent identifiers for object IDs, so a
/// `#Predicate` compares them (`$0.trip?.persistentModelID == id`) as a format string compares
/// a managed object.
///
/// The SwiftData module registers the conversion; `#Predicate` translation asks here for each
/// constant, so one translator serves both modules.
package enum ForeignModelObjects {
    private static let resolver = Locked<(@Sendable (Any) -> Any?)?>(nil)

    /// Records how to find the managed object or object ID a value stands for (nil: none).
    package static func register(_ resolve: @escaping @Sendable (Any) -> Any?) {
        resolver.withLock { $0 = resolve }
    }

    static func coreDataValue(for value: Any) -> Any? {
        resolver.withLock { $0 }?(value)
    }
}
