/// Structural comparison: whether two models describe the same schema.
///
/// What `==` and `isEqual` ask (overridden in the class body, as `NSObject.isEqual` cannot be
/// from an extension). It is also what a test needs to check a model read from Xcode's XML
/// against one built in code, and it reports *what* differs, not just that something does.
extension NSManagedObjectModel {
    /// Whether `other` has the same entities, properties, types, optionality, defaults,
    /// validation codes, relationships (destinations, inverses, counts, delete rules),
    /// inheritance, uniqueness constraints and fetch request template names.
    ///
    /// For example:
    /// ```swift
    /// let loaded = try NSManagedObjectModel.load(contentsOf: url)
    /// assert(loaded.isStructurallyEqual(to: modelBuiltInCode))
    /// ```
    public func isStructurallyEqual(to other: NSManagedObjectModel) -> Bool {
        structuralDifferences(from: other).isEmpty
    }

    /// One line per difference, such as `Book.pages: optional true != false`.
    public func structuralDifferences(from other: NSManagedObjectModel) -> [String] {
        var differences: [String] = []
        let mine = entitiesByName
        let theirs = other.entitiesByName
        for name in Set(mine.keys).symmetricDifference(theirs.keys).sorted() {
            differences.append("entity \(name): only in \(mine[name] == nil ? "the other model" : "this model")")
        }
        for name in Set(mine.keys).intersection(theirs.keys).sorted() {
            if let entity = mine[name], let otherEntity = theirs[name] {
                differences += entity.structuralDifferences(from: otherEntity)
            }
        }
        let templates = Set(fetchRequestTemplatesByName.keys)
        let otherTemplates = Set(other.fetchRequestTemplatesByName.keys)
        if templates != otherTemplates {
            differences.append("fetch request templates: \(templates.sorted()) != \(otherTemplates.sorted())")
        }
        return differences
    }
}

extension NSEntityDescription {
    /// Differences in this entity's own settings and in every property it has, inherited or not.
    func structuralDifferences(from other: NSEntityDescription) -> [String] {
        let name = self.name ?? "?"
        var differences: [String] = []
        func check<T: Equatable>(_ label: String, _ mine: T, _ theirs: T) {
            if mine != theirs { differences.append("\(name): \(label) \(mine) != \(theirs)") }
        }
        check("class", managedObjectClassName ?? "", other.managedObjectClassName ?? "")
        check("abstract", isAbstract, other.isAbstract)
        check("superentity", superentity?.name ?? "-", other.superentity?.name ?? "-")
        check("subentities", Set(subentities.compactMap(\.name)), Set(other.subentities.compactMap(\.name)))
        check("uniqueness constraints", Self.names(uniquenessConstraints), Self.names(other.uniquenessConstraints))
        check("user info", Self.strings(userInfo), Self.strings(other.userInfo))
        let mine = propertiesByName
        let theirs = other.propertiesByName
        for property in Set(mine.keys).symmetricDifference(theirs.keys).sorted() {
            differences.append("\(name).\(property): only in \(mine[property] == nil ? "the other model" : "this model")")
        }
        for property in Set(mine.keys).intersection(theirs.keys).sorted() {
            if let description = mine[property], let otherDescription = theirs[property] {
                differences += description.structuralDifferences(from: otherDescription, in: name)
            }
        }
        return differences
    }

    private static func names(_ constraints: [[Any]]) -> [[String]] {
        constraints.map { $0.map { "\($0)" } }
    }

    static func strings(_ info: [AnyHashable: Any]?) -> [String: String] {
        var strings: [String: String] = [:]
        for (key, value) in info ?? [:] { strings["\(key)"] = "\(value)" }
        return strings
    }
}

extension NSPropertyDescription {
    func structuralDifferences(from other: NSPropertyDescription, in entityName: String) -> [String] {
        let place = "\(entityName).\(name)"
        var differences: [String] = []
        func check<T: Equatable>(_ label: String, _ mine: T, _ theirs: T) {
            if mine != theirs { differences.append("\(place): \(label) \(mine) != \(theirs)") }
        }
        check("owner", entity?.name ?? "-", other.entity?.name ?? "-")
        check("optional", isOptional, other.isOptional)
        check("transient", isTransient, other.isTransient)
        check("user info", NSEntityDescription.strings(userInfo), NSEntityDescription.strings(other.userInfo))
        check("validation warnings", validationWarnings.map { "\($0)" }, other.validationWarnings.map { "\($0)" })
        check("validation predicate count", validationPredicates.count, other.validationPredicates.count)
        switch (self, other) {
        case let (attribute as NSAttributeDescription, otherAttribute as NSAttributeDescription):
            check("type", attribute.attributeType.rawValue, otherAttribute.attributeType.rawValue)
            check("external storage", attribute.allowsExternalBinaryDataStorage, otherAttribute.allowsExternalBinaryDataStorage)
            check("transformer", attribute.valueTransformerName ?? "-", otherAttribute.valueTransformerName ?? "-")
            check("value class", attribute.attributeValueClassName ?? "-", otherAttribute.attributeValueClassName ?? "-")
            check("derivation", (attribute as? NSDerivedAttributeDescription)?.derivationExpression?.description ?? "-",
                  (otherAttribute as? NSDerivedAttributeDescription)?.derivationExpression?.description ?? "-")
            check("composite elements", Self.elementSummary(attribute), Self.elementSummary(otherAttribute))
            if !Self.valuesEqual(attribute.defaultValue, otherAttribute.defaultValue) {
                differences.append("\(place): default \(attribute.defaultValue ?? "nil") != \(otherAttribute.defaultValue ?? "nil")")
            }
        case let (relationship as NSRelationshipDescription, otherRelationship as NSRelationshipDescription):
            check("destination", relationship.destinationEntity?.name ?? "-", otherRelationship.destinationEntity?.name ?? "-")
            check("inverse", relationship.inverseRelationship?.name ?? "-", otherRelationship.inverseRelationship?.name ?? "-")
            check("delete rule", relationship.deleteRule.rawValue, otherRelationship.deleteRule.rawValue)
            check("minCount", relationship.minCount, otherRelationship.minCount)
            check("maxCount", relationship.maxCount, otherRelationship.maxCount)
            check("ordered", relationship.isOrdered, otherRelationship.isOrdered)
        default:
            differences.append("\(place): an attribute on one side, a relationship on the other")
        }
        return differences
    }

    /// A composite's elements as `path:type` text, empty for other attributes.
    private static func elementSummary(_ attribute: NSAttributeDescription) -> [String] {
        ((attribute as? NSCompositeAttributeDescription)?.leaves ?? []).map {
            "\($0.path.joined(separator: ".")):\($0.attribute.attributeType.rawValue):\($0.attribute.isOptional)"
        }
    }

    /// Default values compare by value across representations: a default read from XML is an
    /// `NSNumber` where one written in code is often a Swift `Int` or `Bool`.
    static func valuesEqual(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil):
            return true
        case let (left as String, right as String):
            return left == right
        case let (left as Date, right as Date):
            return left == right
        case let (left as UUID, right as UUID):
            return left == right
        case let (left as URL, right as URL):
            return left == right
        case let (left as Data, right as Data):
            return left == right
        case let (left as Decimal, right as Decimal):
            return left == right
        case let (left as NSNumber, right as NSNumber):
            return left == right
        case let (left as AnyHashable, right as AnyHashable):
            return left == right
        default:
            return false
        }
    }
}
