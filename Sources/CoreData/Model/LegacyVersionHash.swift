/// The version hashes this project wrote before it computed Apple's (`VersionHash`): a
/// 32-byte FNV-1a digest of a canonical text of the same inputs.
///
/// Kept only to recognise stores written by those releases: a store whose recorded hashes
/// are these for the model opening it was written with that model, so it opens without a
/// migration and records Apple's hashes from its next save on (`SQLiteStore`).
enum LegacyVersionHash {
    /// Each entity's old-recipe hash, by name.
    static func entityHashes(of model: NSManagedObjectModel) -> [String: Data] {
        model.entitiesByName.mapValues(of)
    }

    private static func of(_ entity: NSEntityDescription) -> Data {
        var text = "entity|\(entity.name ?? "")|parent:\(entity.superentity?.name ?? "")|abstract:\(entity.isAbstract)"
        text += "|modifier:\(entity.versionHashModifier ?? "")"
        for property in entity.properties.sorted(by: { $0.name < $1.name }) where !property.isTransient {
            text += "|" + of(property).base64EncodedString()
        }
        return Data(StableHash.digest(text))
    }

    private static func of(_ property: NSPropertyDescription) -> Data {
        var text = "property|\(property.name)|optional:\(property.isOptional)|transient:\(property.isTransient)"
        text += "|modifier:\(property.versionHashModifier ?? "")"
        if let attribute = property as? NSAttributeDescription {
            text += "|type:\(attribute.attributeType.rawValue)|external:\(attribute.allowsExternalBinaryDataStorage)"
            for leaf in (attribute as? NSCompositeAttributeDescription)?.leaves ?? [] {
                text += ",\(leaf.path.joined(separator: ".")):\(leaf.attribute.attributeType.rawValue)"
            }
        } else if let relationship = property as? NSRelationshipDescription {
            text += "|destination:\(relationship.destinationEntity?.name ?? relationship.destinationEntityName ?? "")"
            text += "|min:\(relationship.minCount)|max:\(relationship.maxCount)|toMany:\(relationship.isToMany)"
            text += "|inverse:\(relationship.inverseRelationship?.name ?? relationship.inverseName ?? "")|ordered:\(relationship.isOrdered)"
        }
        return Data(StableHash.digest(text))
    }
}
