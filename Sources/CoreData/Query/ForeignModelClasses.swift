/// The entities another module's model classes stand for in a predicate: a SwiftData `@Model`
/// class is its entity and its subclasses' entities, so `#Predicate<Vehicle> { $0 is Car }`
/// compares the object's entity as a format string's `entity == %@` does.
///
/// The SwiftData module registers each schema's classes; `#Predicate` translation asks here.
package enum ForeignModelClasses {
    private static let entities = Locked<[ObjectIdentifier: [NSEntityDescription]]>([:])

    /// Records that `type` stands for `entities` (its own first, then its subclasses').
    package static func register(_ entities: [NSEntityDescription], for type: Any.Type) {
        self.entities.withLock { $0[ObjectIdentifier(type)] = entities }
    }

    static func entities(of type: Any.Type) -> [NSEntityDescription]? {
        entities.withLock { $0[ObjectIdentifier(type)] }
    }
}
