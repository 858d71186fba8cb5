/// A model's stored shape written as the element tree Xcode's `contents` file holds, and read
/// back with the same reader, so a store can keep the model it was written with.
///
/// A SQLite store keeps this archive beside its rows (Apple's stores keep theirs in
/// `Z_MODELCACHE`): a migration then finds its source model even when the program no longer
/// ships the old version, or built its model in code. Only what shapes the stored rows and
/// their version hashes is kept: entities and their inheritance, attributes (types, composite
/// elements, optionality, external storage), relationships (destinations, inverses, counts,
/// ordering, delete rules), hash modifiers and renaming identifiers. Defaults, validation rules,
/// derivations and fetched properties belong to the program's current model.
enum ModelSchemaArchive {
    /// The archive of `model`, in the compiled-model encoding.
    static func data(of model: NSManagedObjectModel) throws -> Data {
        let root = ModelXMLElement(name: "model", attributes: [:], line: 0)
        var composites: [ModelXMLElement] = []
        for entity in model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            var attributes = ["name": entity.name ?? "", "representedClassName": entity.managedObjectClassName ?? "NSManagedObject"]
            attributes["parentEntity"] = entity.superentity?.name
            attributes["isAbstract"] = entity.isAbstract ? "YES" : nil
            attributes["versionHashModifier"] = entity.versionHashModifier
            attributes["elementID"] = entity.renamingIdentifier
            let element = ModelXMLElement(name: "entity", attributes: attributes, line: 0)
            for property in entity.properties where property.entity === entity && !(property is NSFetchedPropertyDescription) {
                element.children.append(self.element(for: property, owner: entity.name ?? "", composites: &composites))
            }
            root.children.append(element)
        }
        root.children += composites
        return try CompiledModel.encode(root)
    }

    /// The model archived in `data`; `place` names where it came from in errors.
    static func model(from data: Data, place: URL) throws -> NSManagedObjectModel {
        let root: ModelXMLElement
        do {
            root = try CompiledModel.decode(data)
        } catch {
            throw ModelXMLReader.loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: place, line: nil, problem: error.problem)
        }
        return NSManagedObjectModel(entities: try ModelXMLReader.contents(of: root, in: place).entities)
    }

    private static func element(for property: NSPropertyDescription, owner: String, composites: inout [ModelXMLElement]) -> ModelXMLElement {
        var attributes = ["name": property.name]
        attributes["optional"] = property.isOptional ? "YES" : nil
        attributes["transient"] = property.isTransient ? "YES" : nil
        attributes["versionHashModifier"] = property.versionHashModifier
        attributes["elementID"] = property.renamingIdentifier
        if let relationship = property as? NSRelationshipDescription {
            attributes["destinationEntity"] = relationship.destinationEntity?.name ?? relationship.destinationEntityName
            attributes["inverseName"] = relationship.inverseRelationship?.name ?? relationship.inverseName
            attributes["toMany"] = relationship.isToMany ? "YES" : nil
            attributes["ordered"] = relationship.isOrdered ? "YES" : nil
            attributes["minCount"] = String(relationship.minCount)
            attributes["maxCount"] = relationship.isToMany && relationship.maxCount > 0 ? String(relationship.maxCount) : nil
            attributes["deletionRule"] = switch relationship.deleteRule {
            case .noActionDeleteRule: "No Action"
            case .nullifyDeleteRule: "Nullify"
            case .cascadeDeleteRule: "Cascade"
            case .denyDeleteRule: "Deny"
            }
            return ModelXMLElement(name: "relationship", attributes: attributes, line: 0)
        }
        let attribute = property as! NSAttributeDescription
        attributes["attributeType"] = ModelXMLReader.attributeTypesByName.first { $0.value == attribute.attributeType }?.key
        attributes["allowsExternalBinaryDataStorage"] = attribute.allowsExternalBinaryDataStorage ? "YES" : nil
        attributes["preserveAfterDeletion"] = attribute.preservesValueInHistoryOnDeletion ? "YES" : nil
        if let composite = attribute as? NSCompositeAttributeDescription {
            // Named after the path that reaches it, which is unique in the model.
            let name = "\(owner).\(composite.name)"
            attributes["composite"] = name
            let definition = ModelXMLElement(name: "composite", attributes: ["name": name], line: 0)
            for element in composite.elements {
                definition.children.append(self.element(for: element, owner: name, composites: &composites))
            }
            composites.append(definition)
        }
        return ModelXMLElement(name: "attribute", attributes: attributes, line: 0)
    }
}
