/// Apple's version hashes of entities, properties and whole models (the recipe in the README's
/// "Version hashes" section): the bytes Apple's framework records in a store's metadata, so
/// that a store written here opens on Apple platforms without a migration, and one written
/// there opens here.
///
/// A store records each entity's hash when it is written; a model whose hashes differ needs a
/// migration before it can open that store. So a hash moves exactly when the stored shape (as
/// Apple sees it) moves: an entity's name, parent, abstractness, persistent properties,
/// uniqueness constraints and hash modifier; a property's name, optionality, transience,
/// read-only flag and hash modifier; an attribute's type, external storage and history
/// preservation; a relationship's destination, inverse, counts and ordering. Class names, user
/// info, validation, defaults, renaming identifiers, indexes and delete rules are left out.
enum VersionHash {
    /// SHA-256 over the entity's name, its abstract byte, its parent's hash, the hashes of its
    /// stored properties (inherited ones included) in name order, its hash modifier and its
    /// own uniqueness constraints.
    static func of(_ entity: NSEntityDescription) -> Data {
        var bytes = Array((entity.name ?? "").utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parent = entity.superentity { bytes += of(parent) }
        let hashed = entity.properties.filter { !$0.isTransient && !($0 is NSFetchedPropertyDescription) }
        for property in hashed.sorted(by: { inNameOrder($0.name, $1.name) }) { bytes += property.versionHash }
        bytes += Array((entity.versionHashModifier ?? "").utf8)
        let constraints = entity.uniquenessConstraints.map { constraint in
            constraint.map { ($0 as? NSPropertyDescription)?.name ?? "\($0)" }.joined(separator: ".")
        }
        for constraint in constraints.sorted(by: inNameOrder) { bytes += Array(constraint.utf8) }
        return Data(SHA2.sha256(bytes))
    }

    /// An attribute's or relationship's hash, over its base hash (`baseHash`) and the parts
    /// of its kind.
    static func of(_ property: NSPropertyDescription) -> Data {
        var bytes = baseHash(property)
        if let attribute = property as? NSAttributeDescription {
            bytes += littleEndian(UInt32(truncatingIfNeeded: attribute.attributeType.rawValue))
            if attribute.allowsExternalBinaryDataStorage { bytes.append(1) }
            if attribute.preservesValueInHistoryOnDeletion { bytes.append(1) }
            // Not yet checked against a file Apple wrote (README): the derivation's format
            // text, and a composite's elements as the columns they flatten to.
            if let derived = attribute as? NSDerivedAttributeDescription, let expression = derived.derivationExpression {
                bytes += Array(expression.description.utf8)
            }
            for leaf in (attribute as? NSCompositeAttributeDescription)?.leaves ?? [] {
                bytes += Array(leaf.path.joined(separator: ".").utf8)
                bytes += littleEndian(UInt32(truncatingIfNeeded: leaf.attribute.attributeType.rawValue))
            }
        } else if let relationship = property as? NSRelationshipDescription {
            bytes += Array((relationship.destinationEntity?.name ?? relationship.destinationEntityName ?? "").utf8)
            bytes += Array((hashedInverseName(of: relationship) ?? "").utf8)
            bytes += littleEndian(UInt32(truncatingIfNeeded: relationship.maxCount))
            bytes += littleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
            if relationship.isOrdered { bytes += littleEndian(UInt16(1)) }
        }
        return Data(SHA2.sha256(bytes))
    }

    /// SHA-256 over the property's name, its flags word (1 optional, 2 transient, 4 read-only)
    /// and its hash modifier: the first 32 bytes every property hash starts from.
    private static func baseHash(_ property: NSPropertyDescription) -> [UInt8] {
        var flags: UInt16 = 0
        if property.isOptional { flags |= 1 }
        if property.isTransient { flags |= 2 }
        if property is NSDerivedAttributeDescription { flags |= 4 }
        return SHA2.sha256(Array(property.name.utf8) + littleEndian(flags) + Array((property.versionHashModifier ?? "").utf8))
    }

    /// The inverse's name, or nil for a relationship without one or that is its own inverse
    /// (a symmetric `friends`); by name while the model has not resolved the inverse yet.
    private static func hashedInverseName(of relationship: NSRelationshipDescription) -> String? {
        if let inverse = relationship.inverseRelationship { return inverse === relationship ? nil : inverse.name }
        guard let name = relationship.inverseName else { return nil }
        let destination = relationship.destinationEntity?.name ?? relationship.destinationEntityName
        return name == relationship.name && destination == relationship.entity?.name ? nil : name
    }

    /// Apple's `versionChecksum`: Base64 of SHA-256 over the entity hashes in entity name order.
    /// From the hashes alone, so a store's recorded hashes give the checksum of the model
    /// that wrote it.
    static func checksum(_ entityHashes: [String: Data]) -> String {
        Data(SHA2.sha256(entityHashes.sorted { inNameOrder($0.key, $1.key) }.flatMap(\.value))).base64EncodedString()
    }

    /// Apple's `NSStoreModelVersionHashesDigest`: Base64 of SHA-512 over each entity's name
    /// and hash, in name order.
    static func digest(_ entityHashes: [String: Data]) -> String {
        Data(SHA2.sha512(entityHashes.sorted { inNameOrder($0.key, $1.key) }.flatMap { Array($0.key.utf8) + $0.value })).base64EncodedString()
    }

    /// The keys Apple's framework writes into a store's metadata about the model that wrote
    /// it, beside `NSStoreModelVersionHashesKey`; not public API on Apple platforms either.
    static let digestKey = "NSStoreModelVersionHashesDigest"
    static let checksumKey = "NSStoreModelVersionChecksumKey"
    static let hashesVersionKey = "NSStoreModelVersionHashesVersion"
    /// The version of this recipe, as stores record it (3 in current releases' stores).
    static let hashesVersion = 3
    /// Every key `storeMetadata(of:)` sets.
    static let storeMetadataKeys = [NSStoreModelVersionHashesKey, digestKey, checksumKey, hashesVersionKey]

    /// What a store written (or migrated) with `model` records about it.
    static func storeMetadata(of model: NSManagedObjectModel) -> [String: Any] {
        let hashes = model.entityVersionHashesByName
        return [NSStoreModelVersionHashesKey: hashes, digestKey: digest(hashes), checksumKey: checksum(hashes), hashesVersionKey: hashesVersion]
    }

    /// Foundation's `compare:` order, which Apple sorts names by (code order for ASCII names).
    static func inNameOrder(_ first: String, _ second: String) -> Bool {
        first.compare(second) == .orderedAscending
    }

    private static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }
}
