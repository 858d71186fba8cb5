/// A class the `@Model` macro made persistent, and observable: reading a persisted property
/// inside `withObservationTracking` (or a SwiftUI-style observer) registers it, and setting it
/// notifies.
public protocol PersistentModel: AnyObject, Observable, Hashable, Identifiable where ID == PersistentIdentifier {
    /// Where the model's persisted values live: a managed object once inserted or fetched.
    var persistentBackingData: ModelBackingData { get set }
    /// The persisted properties, with their key paths and `@Attribute`/`@Relationship` options.
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
    /// The `#Unique` constraints, as property names.
    static var schemaUniquenessConstraints: [[String]] { get }
    /// The `#Index` declarations, as property names.
    static var schemaIndexes: [[String]] { get }
    /// Makes a model around existing backing data.
    init(backingData: ModelBackingData)
    /// Makes a model around a fetched object, which the slot holds: what a context calls, so
    /// that a fetched model has no backing data of its own until someone asks for it. The
    /// `@Model` macro writes it.
    init(_$backingSlot slot: consuming ModelBackingSlot)
}

extension PersistentModel {
    public static var schemaUniquenessConstraints: [[String]] { [] }
    public static var schemaIndexes: [[String]] { [] }

    /// The model's identity: temporary until the model's context saves it.
    public var persistentModelID: PersistentIdentifier {
        persistentBackingData.persistentModelID(entityName: String(describing: type(of: self)))
    }

    public var id: PersistentIdentifier { persistentModelID }

    /// The context the model is inserted in or was fetched by; nil before insertion.
    public var modelContext: ModelContext? { persistentBackingData.context }

    /// Whether the model is deleted in its context and not yet saved.
    public var isDeleted: Bool { persistentBackingData.object?.isDeleted ?? false }

    /// Whether the model has unsaved changes (an unattached model always has).
    public var hasChanges: Bool { persistentBackingData.object?.hasChanges ?? true }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The entity name: the class's name, as Core Data names entities.
    static var entityName: String { String(describing: Self.self) }
}
