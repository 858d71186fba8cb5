/// The one place model version hashes are computed, from the inputs Apple's framework uses.
///
/// A store records each entity's hash when it is written; a model whose hashes differ needs a
/// migration before it can open that store. So a hash must move exactly when the stored shape
/// (or what Apple treats as such) moves: an entity's name, parent, abstractness, persistent
/// properties and hash modifier; a property's name, optionality, transience and hash modifier;
/// an attribute's type and external storage; a relationship's destination, counts, inverse and
/// ordering. Class names, user info, validation, defaults, renaming identifiers and delete rules
/// are left out, as Apple leaves them out.
///
/// The bytes are ours (a stable digest of a canonical text), not Apple's: Apple's are 32-byte
/// digests of an encoding it does not publish (the iOS fixture in `shared/fixtures/apple-stores`
/// holds two). Stores Apple wrote open anyway when their tables match the model
/// (`SQLiteSchemaCheck`); keeping the recipe here means only this file changes if they are
/// ever matched.
enum VersionHash {
    static func of(_ entity: NSEntityDescription) -> Data {
        var text = "entity|\(entity.name ?? "")|parent:\(entity.superentity?.name ?? "")|abstract:\(entity.isAbstract)"
        text += "|modifier:\(entity.versionHashModifier ?? "")"
        for property in entity.properties.sorted(by: { $0.name < $1.name }) where !property.isTransient {
            text += "|" + property.versionHash.base64EncodedString()
        }
        return Data(StableHash.digest(text))
    }

    static func of(_ property: NSPropertyDescription) -> Data {
        var text = "property|\(property.name)|optional:\(property.isOptional)|transient:\(property.isTransient)"
        text += "|modifier:\(property.versionHashModifier ?? "")"
        if let attribute = property as? NSAttributeDescription {
            text += "|type:\(attribute.attributeType.rawValue)|external:\(attribute.allowsExternalBinaryDataStorage)"
            // A composite's elements are columns of the table too.
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

    /// One string for a whole model version (Apple's `versionChecksum`), from its entities'
    /// hashes; a store's recorded hashes give the same string as the model that wrote it.
    static func checksum(_ entityHashes: [String: Data]) -> String {
        let text = entityHashes.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value.base64EncodedString())" }.joined(separator: "|")
        return Data(StableHash.digest(text)).base64EncodedString()
    }
}
