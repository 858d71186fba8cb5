/// Infers the mapping between two model versions, as lightweight migration does: a
/// destination entity or property takes its values from the source one with its
/// `renamingIdentifier`, or with its own name.
///
/// As Apple's inference: an attribute whose type changes is not inferred, unless
/// `convertsAttributeTypes` (our `NSInferAttributeTypeConversionsOption`) allows the
/// conversions `AttributeConversion` knows; a new mandatory attribute without a default is
/// inferred, and the migration fails only if some row is left without a value.
struct MappingInference {
    let source: NSManagedObjectModel
    let destination: NSManagedObjectModel
    var convertsAttributeTypes = false

    func mappingModel() throws -> NSMappingModel {
        let model = NSMappingModel()
        let sourceEntities = source.entitiesByName
        var mappedSources = Set<String>()
        for entity in destination.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            let name = entity.name ?? ""
            let mapping = NSEntityMapping()
            mapping.destinationEntityName = name
            mapping.destinationEntityVersionHash = entity.versionHash
            guard let sourceEntity = sourceEntities[entity.renamingIdentifier ?? name] ?? sourceEntities[name] else {
                mapping.name = "AddTo\(name)"
                mapping.mappingType = .addEntityMappingType
                model.entityMappings.append(mapping)
                continue
            }
            let sourceName = sourceEntity.name ?? ""
            mappedSources.insert(sourceName)
            mapping.name = "\(sourceName)To\(name)"
            mapping.sourceEntityName = sourceName
            mapping.sourceEntityVersionHash = sourceEntity.versionHash
            mapping.mappingType = sourceEntity.versionHash == entity.versionHash && sourceName == name ? .copyEntityMappingType : .transformEntityMappingType
            mapping.attributeMappings = try entity.attributesByName.values.sorted(by: { $0.name < $1.name })
                .filter { !$0.isTransient }
                .map { try attributeMapping(for: $0, from: sourceEntity) }
            mapping.relationshipMappings = entity.relationshipsByName.values.sorted(by: { $0.name < $1.name })
                .map { relationshipMapping(for: $0, from: sourceEntity) }
            model.entityMappings.append(mapping)
        }
        for entity in source.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) where !mappedSources.contains(entity.name ?? "") {
            let mapping = NSEntityMapping()
            mapping.name = "\(entity.name ?? "")ToRemove"
            mapping.mappingType = .removeEntityMappingType
            mapping.sourceEntityName = entity.name
            mapping.sourceEntityVersionHash = entity.versionHash
            model.entityMappings.append(mapping)
        }
        return model
    }

    /// The source property a destination property continues: the one its renaming identifier
    /// names, else the one of the same name.
    private func sourceProperty(for property: NSPropertyDescription, in entity: NSEntityDescription) -> NSPropertyDescription? {
        let candidate = entity.propertiesByName[property.renamingIdentifier ?? property.name] ?? entity.propertiesByName[property.name]
        return candidate?.isTransient == false ? candidate : nil
    }

    private func attributeMapping(for attribute: NSAttributeDescription, from entity: NSEntityDescription) throws -> NSPropertyMapping {
        let place = "\(attribute.entity.name ?? "").\(attribute.name)"
        guard let sourceAttribute = sourceProperty(for: attribute, in: entity) as? NSAttributeDescription else {
            return NSPropertyMapping(name: attribute.name, copying: nil)
        }
        guard AttributeConversion(from: sourceAttribute, to: attribute) != nil else {
            throw Self.inferenceError("The attribute \(place) changes type from \(sourceAttribute.attributeType) to \(attribute.attributeType), which cannot be inferred")
        }
        guard sourceAttribute.attributeType == attribute.attributeType || convertsAttributeTypes else {
            throw Self.inferenceError("The attribute \(place) changes type from \(sourceAttribute.attributeType) to \(attribute.attributeType); as on Apple platforms, a type change is not inferred (NSInferAttributeTypeConversionsOption allows this one)")
        }
        return NSPropertyMapping(name: attribute.name, copying: sourceAttribute.name)
    }

    /// A relationship continues the source one only if its destination continues the source
    /// one's destination; otherwise it starts empty.
    private func relationshipMapping(for relationship: NSRelationshipDescription, from entity: NSEntityDescription) -> NSPropertyMapping {
        guard let sourceRelationship = sourceProperty(for: relationship, in: entity) as? NSRelationshipDescription,
              let destination = relationship.destinationEntity,
              let sourceDestination = sourceRelationship.destinationEntity?.name,
              (destination.renamingIdentifier ?? destination.name) == sourceDestination || destination.name == sourceDestination else {
            return NSPropertyMapping(name: relationship.name, copying: nil)
        }
        return NSPropertyMapping(name: relationship.name, copying: sourceRelationship.name)
    }

    static func inferenceError(_ message: String) -> NSError {
        CoreDataError.make(NSInferredMappingModelError, "Can't infer mapping model: \(message)")
    }
}
