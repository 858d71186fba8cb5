/// Makes a class a persistent model: its stored properties become the entity's attributes and
/// relationships, read and written through the model's backing managed object.
///
/// For example:
/// ```swift
/// @Model final class Trip {
///     @Attribute(.unique) var name: String
///     var start: Date
///     @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
///     init(name: String, start: Date) { self.name = name; self.start = start }
/// }
/// ```
/// A subclass of a model class is a model too (`@Model class Car: Vehicle`); list both in the
/// schema, which maps them onto a Core Data entity and its subentity, in one table.
@attached(member, conformances: PersistentModel, names: named(_$backingData), named(persistentBackingData), named(schemaMetadata),
          named(schemaUniquenessConstraints), named(schemaIndexes), named(init), arbitrary)
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel)
public macro Model() = #externalMacro(module: "SwiftDataMacros", type: "ModelMacro")

/// What `@Model` puts on each persisted property; not written by hand.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_), prefixed(_$property_), prefixed(_$keyPath_))
public macro _PersistedProperty() = #externalMacro(module: "SwiftDataMacros", type: "PersistedPropertyMacro")

/// Options of a persisted attribute: uniqueness, external storage, the name it had before a
/// rename (for migration) and a version-hash modifier.
@attached(peer)
public macro Attribute(_ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil) =
    #externalMacro(module: "SwiftDataMacros", type: "PropertyMarkerMacro")

/// Options of a relationship: delete rule, inverse, count bounds, former name.
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0, maximumModelCount: Int? = 0, originalName: String? = nil,
    inverse: AnyKeyPath? = nil, hashModifier: String? = nil
) = #externalMacro(module: "SwiftDataMacros", type: "PropertyMarkerMacro")

/// A stored property of a model that is not persisted.
@attached(peer)
public macro Transient() = #externalMacro(module: "SwiftDataMacros", type: "PropertyMarkerMacro")

/// Uniqueness constraints of a model, one key-path array per constraint (compound when it
/// names several properties): inserting a model that matches a saved one updates that one.
@freestanding(declaration)
public macro Unique<T>(_ constraints: [PartialKeyPath<T>]...) = #externalMacro(module: "SwiftDataMacros", type: "ConstraintMarkerMacro")

/// Indexes of a model, one key-path array per index (recorded in the schema).
@freestanding(declaration)
public macro Index<T>(_ indices: [PartialKeyPath<T>]...) = #externalMacro(module: "SwiftDataMacros", type: "ConstraintMarkerMacro")

/// Makes an actor own a model context of its own, on which the actor's work runs.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "SwiftDataMacros", type: "ModelActorMacro")

/// The placeholder stored beside each persisted property so Swift sees it initialised.
public struct _SwiftDataNoType: Sendable {
    public init() {}
}
