/// Turns model classes' metadata into Core Data entities: attributes from the property types,
/// relationships from model-typed properties, inverses from `@Relationship(inverse:)` or, as
/// SwiftData does, inferred when the destination has exactly one relationship back.
struct SchemaBuilder {
    let types: [any PersistentModel.Type]

    struct Built {
        var entities: [Schema.Entity]
        var model: NSManagedObjectModel
        var types: [String: any PersistentModel.Type]
    }

    /// Every entity's objects are `ModelBackingObject`s, found by this module-qualified name.
    static let backingClassName = String(reflecting: ModelBackingObject.self)

    func build() -> Built {
        // In a `#Predicate`, `persistentModelID` is the object: `$0.trip?.persistentModelID == id`.
        ForeignModelObjects.register { value in
            switch ValueShape.unwrap(value) {
            case let identifier as PersistentIdentifier: identifier.objectID
            case let model as any PersistentModel: model.persistentBackingData.object
            default: nil
            }
        }
        var typesByName: [String: any PersistentModel.Type] = [:]
        var entities: [Schema.Entity] = []
        var relationships: [(entity: Schema.Entity, metadata: Schema.PropertyMetadata, schema: Schema.Relationship, description: NSRelationshipDescription, owner: any PersistentModel.Type, destination: any PersistentModel.Type)] = []
        for type in types {
            let name = type.entityName
            typesByName[name] = type
            ForeignKeyPathNaming.register(ForeignKeyPathNaming.identity, for: Self.identityKeyPath(of: type))
            let description = NSEntityDescription()
            description.name = name
            description.managedObjectClassName = Self.backingClassName
            let entity = Schema.Entity(name: name, entityDescription: description)
            // A subclass's entity inherits its superclass's properties, as a Core Data subentity.
            let inherited = Set(modelSuperclass(of: type)?.schemaMetadata.map(\.name) ?? [])
            var properties: [NSPropertyDescription] = []
            var constraints = type.schemaUniquenessConstraints
            for metadata in type.schemaMetadata {
                ForeignKeyPathNaming.register(metadata.name, for: metadata.keypath)
                guard !inherited.contains(metadata.name) else { continue }
                let valueType = Swift.type(of: metadata.keypath).valueType
                switch ValueShape.of(valueType) {
                case .toOne(let destination, let optional), .toMany(let destination, let optional):
                    let schema = metadata.metadata as? Schema.Relationship ?? Schema.Relationship()
                    schema.name = metadata.name
                    schema.destination = destination.entityName
                    if case .toMany = ValueShape.of(valueType) { schema.isToOneRelationship = false }
                    schema.isOptional = optional || !schema.isToOneRelationship
                    let relationship = NSRelationshipDescription()
                    relationship.name = metadata.name
                    relationship.deleteRule = schema.deleteRule.coreData
                    relationship.isOptional = schema.isOptional
                    relationship.maxCount = schema.isToOneRelationship ? 1 : schema.maximumModelCount ?? 0
                    relationship.minCount = schema.minimumModelCount ?? 0
                    relationship.renamingIdentifier = schema.originalName
                    relationship.versionHashModifier = schema.hashModifier
                    if schema.isUnique { constraints.append([metadata.name]) }
                    entity.relationships.insert(schema)
                    relationships.append((entity, metadata, schema, relationship, type, destination))
                    properties.append(relationship)
                case .direct, .converted:
                    let schema = metadata.metadata as? Schema.Attribute ?? Schema.Attribute()
                    let (attributeType, optional) = ValueShape.attributeType(of: valueType)
                    schema.name = metadata.name
                    schema.valueType = valueType
                    schema.isOptional = optional
                    let attribute = NSAttributeDescription(name: metadata.name, type: attributeType, optional: optional)
                    attribute.allowsExternalBinaryDataStorage = schema.options.contains(.externalStorage)
                    attribute.preservesValueInHistoryOnDeletion = schema.options.contains(.preserveValueOnDeletion)
                    attribute.isTransient = schema.options.contains(.ephemeral)
                    attribute.renamingIdentifier = schema.originalName
                    attribute.versionHashModifier = schema.hashModifier
                    attribute.defaultValue = Self.storedDefault(metadata.defaultValue, shape: ValueShape.of(valueType))
                    if schema.isUnique { constraints.append([metadata.name]) }
                    entity.attributes.insert(schema)
                    properties.append(attribute)
                }
            }
            description.properties = properties
            description.uniquenessConstraints = constraints
            entity.uniquenessConstraints = constraints
            entity.indices = type.schemaIndexes
            entities.append(entity)
        }
        linkSubentities(entities, typesByName: typesByName)
        // In a `#Predicate`, `$0 is Car` is the object's entity being Car's or a subclass's.
        for entity in entities {
            guard let type = typesByName[entity.name] else { continue }
            ForeignModelClasses.register(Self.entityWithDescendants(entity).map(\.entityDescription), for: type)
        }
        for entity in entities {
            guard let type = typesByName[entity.name] else { continue }
            entity.entityDescription.indexes = Self.fetchIndexes(type.schemaIndexes, of: entity.entityDescription)
        }
        resolveInverses(relationships.map { ($0.schema, $0.description, $0.owner, $0.destination, $0.entity.entityDescription) }, entities: entities)
        let model = NSManagedObjectModel()
        model.entities = entities.map(\.entityDescription)
        return Built(entities: entities, model: model, types: typesByName)
    }

    /// The nearest superclass of `type` that is one of the schema's models: its entity is the
    /// superentity of `type`'s.
    func modelSuperclass(of type: any PersistentModel.Type) -> (any PersistentModel.Type)? {
        var current: AnyClass? = _getSuperclass(type)
        while let candidate = current {
            if let model = types.first(where: { ObjectIdentifier($0) == ObjectIdentifier(candidate) }) { return model }
            current = _getSuperclass(candidate)
        }
        return nil
    }

    private static func entityWithDescendants(_ entity: Schema.Entity) -> [Schema.Entity] {
        [entity] + entity.subentities.flatMap(entityWithDescendants)
    }

    /// Makes each subclass's entity a subentity of its superclass's, and gives the schema's
    /// entity the properties it inherits, superclasses first.
    private func linkSubentities(_ entities: [Schema.Entity], typesByName: [String: any PersistentModel.Type]) {
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        var linked = Set<String>()
        func link(_ entity: Schema.Entity) {
            guard linked.insert(entity.name).inserted,
                  let type = typesByName[entity.name], let parentType = modelSuperclass(of: type),
                  let parent = byName[parentType.entityName] else { return }
            link(parent)
            parent.entityDescription.subentities.append(entity.entityDescription)
            entity.superentity = parent
            parent.subentities.insert(entity)
            entity.attributes.formUnion(parent.attributes)
            entity.relationships.formUnion(parent.relationships)
        }
        for entity in entities { link(entity) }
    }

    private static func identityKeyPath<T: PersistentModel>(of type: T.Type) -> AnyKeyPath {
        \T.persistentModelID
    }

    /// A property's initial value as its attribute's default, in the attribute's stored form
    /// (an enum's raw value, a `Codable` value's JSON); nil stays no default.
    static func storedDefault(_ value: Any?, shape: ValueShape) -> Any? {
        guard let value = value.flatMap(ValueShape.unwrap) else { return nil }
        if case .converted(let coding) = shape { return coding.encode(value) }
        return value
    }

    /// `#Index` declarations as fetch indexes, which the SQLite store creates as
    /// `Z_<Entity>_<name>` indexes. The macro gives an index no name, so each is named after its
    /// properties (`name_start`).
    static func fetchIndexes(_ indexes: [[String]], of entity: NSEntityDescription) -> [NSFetchIndexDescription] {
        let properties = entity.propertiesByName
        return indexes.map { names in
            NSFetchIndexDescription(name: names.joined(separator: "_").replacingOccurrences(of: ".", with: "_"), elements: names.compactMap { properties[$0] }.map {
                NSFetchIndexElementDescription(property: $0, collationType: .binary)
            })
        }
    }

    private func resolveInverses(
        _ relationships: [(schema: Schema.Relationship, description: NSRelationshipDescription, owner: any PersistentModel.Type, destination: any PersistentModel.Type, entity: NSEntityDescription)],
        entities: [Schema.Entity]
    ) {
        let descriptionsByEntity = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.entityDescription) })
        func pair(_ index: Int, _ other: Int) {
            let one = relationships[index], two = relationships[other]
            one.description.inverseRelationship = two.description
            two.description.inverseRelationship = one.description
            one.schema.inverseName = two.schema.name
            two.schema.inverseName = one.schema.name
        }
        for relationship in relationships {
            relationship.description.destinationEntity = descriptionsByEntity[relationship.schema.destination]
        }
        // Declared inverses first, then the unambiguous pairs left.
        for (index, relationship) in relationships.enumerated() {
            guard let keyPath = relationship.schema.inverseKeyPath,
                  let other = relationships.firstIndex(where: { isModel(relationship.destination, ofClass: $0.owner) && keyPathName(keyPath, in: relationship.destination) == $0.schema.name }) else { continue }
            pair(index, other)
        }
        for (index, relationship) in relationships.enumerated() where relationship.description.inverseRelationship == nil {
            let candidates = relationships.indices.filter {
                $0 != index && relationships[$0].description.inverseRelationship == nil
                    && same(relationships[$0].owner, relationship.destination) && same(relationships[$0].destination, relationship.owner)
            }
            if candidates.count == 1 { pair(index, candidates[0]) }
        }
    }

    private func same(_ one: any PersistentModel.Type, _ other: any PersistentModel.Type) -> Bool {
        ObjectIdentifier(one) == ObjectIdentifier(other)
    }

    /// Whether `type` is `ancestor` or one of its subclasses.
    private func isModel(_ type: any PersistentModel.Type, ofClass ancestor: any PersistentModel.Type) -> Bool {
        var current: AnyClass? = type
        while let candidate = current {
            if ObjectIdentifier(candidate) == ObjectIdentifier(ancestor) { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    private func keyPathName(_ keyPath: AnyKeyPath, in type: any PersistentModel.Type) -> String? {
        type.schemaMetadata.first { $0.keypath == keyPath }?.name
    }
}
