/// Entities, inheritance, relationships and uniqueness constraints of a model file.
extension ModelXMLReader {
    /// An entity being built, with the names it refers to, which can only be checked once
    /// every entity of the file exists.
    struct EntityDraft {
        let entity: NSEntityDescription
        let element: ModelXMLElement
        let parentName: String?
        let relationships: [(relationship: NSRelationshipDescription, line: Int)]
    }

    func buildEntities() throws(ModelXMLError) -> [EntityDraft] {
        var drafts: [EntityDraft] = []
        var byName: [String: EntityDraft] = [:]
        for element in root.children(named: "entity") {
            let name = try identifier(element, kind: "entity")
            if byName[name] != nil {
                throw ModelXMLError(line: element.line, "entity '\(name)' is defined twice")
            }
            let entity = NSEntityDescription()
            entity.name = name
            entity.managedObjectClassName = Self.className(representedBy: element["representedClassName"])
            entity.isAbstract = element.flag("isAbstract")
            entity.userInfo = userInfo(of: element)
            entity.versionHashModifier = Self.nonEmpty(element["versionHashModifier"])
            entity.renamingIdentifier = Self.nonEmpty(element["elementID"])
            let (properties, relationships) = try buildProperties(of: element, entityName: name)
            entity.properties = properties
            let parentName = element["parentEntity"].flatMap { $0.isEmpty ? nil : $0 }
            let draft = EntityDraft(entity: entity, element: element, parentName: parentName, relationships: relationships)
            drafts.append(draft)
            byName[name] = draft
        }
        try linkInheritance(drafts, byName: byName)
        let entitiesByName = byName.mapValues(\.entity)
        for draft in drafts {
            try checkRelationships(of: draft, byName: byName)
            try resolveFetchedProperties(of: draft, entitiesByName: entitiesByName)
            try draft.entity.uniquenessConstraints = uniquenessConstraints(of: draft)
            try draft.entity.indexes = fetchIndexes(of: draft)
        }
        return drafts
    }

    /// A fetched property's request names an entity that may come later in the file, so it is
    /// read once every entity exists.
    private func resolveFetchedProperties(of draft: EntityDraft, entitiesByName: [String: NSEntityDescription]) throws(ModelXMLError) {
        for element in draft.element.children(named: "fetchedProperty") {
            let name = element["name"] ?? ""
            let place = "fetched property '\(draft.entity.name ?? "").\(name)'"
            guard let property = draft.entity.propertiesByName[name] as? NSFetchedPropertyDescription else { continue }
            guard let requestElement = element.children(named: "fetchRequest").first else {
                throw ModelXMLError(line: element.line, "\(place) has no fetchRequest")
            }
            property.fetchRequest = try fetchRequest(requestElement, place: place, entitiesByName: entitiesByName)
        }
    }

    /// Apple instantiates `NSManagedObject` when no class is named. Xcode writes a leading dot
    /// for "Current Product Module"; the class registry looks names up without it.
    static func className(representedBy name: String?) -> String {
        guard var name, !name.isEmpty else { return "NSManagedObject" }
        if name.hasPrefix(".") { name.removeFirst() }
        return name.isEmpty ? "NSManagedObject" : name
    }

    private func buildProperties(of entity: ModelXMLElement, entityName: String) throws(ModelXMLError)
        -> ([NSPropertyDescription], [(relationship: NSRelationshipDescription, line: Int)])
    {
        var properties: [NSPropertyDescription] = []
        var relationships: [(relationship: NSRelationshipDescription, line: Int)] = []
        var names = Set<String>()
        for element in entity.children where ["attribute", "relationship", "fetchedProperty"].contains(element.name) {
            let property: NSPropertyDescription
            if element.name == "attribute" {
                property = try buildAttribute(element, entityName: entityName)
            } else if element.name == "fetchedProperty" {
                property = NSFetchedPropertyDescription()
                try applyCommonSettings(of: element, to: property, kind: "fetched property")
            } else {
                let relationship = try buildRelationship(element, entityName: entityName)
                relationships.append((relationship, element.line))
                property = relationship
            }
            guard names.insert(property.name).inserted else {
                throw ModelXMLError(line: element.line, "entity '\(entityName)' has two properties named '\(property.name)'")
            }
            properties.append(property)
        }
        return (properties, relationships)
    }

    /// Settings every property has: name, optionality, transience, index flag and user info.
    /// Xcode writes `optional="YES"` and omits the attribute for a mandatory property.
    func applyCommonSettings(of element: ModelXMLElement, to property: NSPropertyDescription, kind: String) throws(ModelXMLError) {
        property.name = try identifier(element, kind: kind)
        property.isOptional = element.flag("optional")
        property.isTransient = element.flag("transient")
        property.isIndexed = element.flag("indexed")
        property.userInfo = userInfo(of: element)
        property.versionHashModifier = Self.nonEmpty(element["versionHashModifier"])
        // Xcode's "Renaming ID" field.
        property.renamingIdentifier = Self.nonEmpty(element["elementID"])
    }

    private static func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }

    private func buildRelationship(_ element: ModelXMLElement, entityName: String) throws(ModelXMLError) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        try applyCommonSettings(of: element, to: relationship, kind: "relationship")
        let place = "relationship '\(entityName).\(relationship.name)'"
        guard let destination = element["destinationEntity"], !destination.isEmpty else {
            throw ModelXMLError(line: element.line, "\(place) has no destination entity")
        }
        relationship.destinationEntityName = destination
        relationship.inverseName = element["inverseName"].flatMap { $0.isEmpty ? nil : $0 }
        relationship.isOrdered = element.flag("ordered")
        relationship.deleteRule = try deleteRule(element["deletionRule"], line: element.line, place: place)
        relationship.minCount = try count(element["minCount"], line: element.line, place: place) ?? 0
        // A to-one relationship is written with maxCount="1" and no toMany; a to-many one
        // with toMany="YES" and a maxCount only when it is bounded.
        if element.flag("toMany") {
            relationship.maxCount = try count(element["maxCount"], line: element.line, place: place) ?? 0
        } else {
            relationship.maxCount = 1
        }
        if relationship.maxCount != 0, relationship.minCount > relationship.maxCount {
            throw ModelXMLError(line: element.line, "\(place) has minCount \(relationship.minCount) above maxCount \(relationship.maxCount)")
        }
        return relationship
    }

    private func deleteRule(_ text: String?, line: Int, place: String) throws(ModelXMLError) -> NSDeleteRule {
        switch text {
        case nil, "Nullify": .nullifyDeleteRule
        case "Cascade": .cascadeDeleteRule
        case "Deny": .denyDeleteRule
        case "No Action": .noActionDeleteRule
        case let other?: throw ModelXMLError(line: line, "\(place) has unknown deletion rule '\(other)'")
        }
    }

    /// A non-negative count attribute (`minCount`, `fetchLimit`...), nil when absent.
    func count(_ text: String?, line: Int, place: String) throws(ModelXMLError) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw ModelXMLError(line: line, "\(place) has invalid count '\(text)'")
        }
        return value
    }

    // MARK: Resolution

    /// Links each entity to its parent, refusing unknown parents, cycles and properties that
    /// would shadow an inherited one.
    private func linkInheritance(_ drafts: [EntityDraft], byName: [String: EntityDraft]) throws(ModelXMLError) {
        var childrenByParent: [String: [NSEntityDescription]] = [:]
        for draft in drafts {
            guard let parentName = draft.parentName else { continue }
            guard byName[parentName] != nil else {
                throw ModelXMLError(line: draft.element.line, "parent entity '\(parentName)' of '\(draft.entity.name ?? "")' does not exist")
            }
            var seen: Set<String> = [draft.entity.name ?? ""]
            var ancestor: String? = parentName
            while let name = ancestor {
                guard seen.insert(name).inserted else {
                    throw ModelXMLError(line: draft.element.line, "entity '\(draft.entity.name ?? "")' inherits from itself")
                }
                ancestor = byName[name]?.parentName
            }
            childrenByParent[parentName, default: []].append(draft.entity)
        }
        for draft in drafts {
            if let name = draft.entity.name, let children = childrenByParent[name] {
                draft.entity.subentities = children
            }
        }
        for draft in drafts {
            guard let parent = draft.entity.superentity else { continue }
            let inherited = Set(parent.properties.map(\.name))
            for element in draft.element.children where element.name == "attribute" || element.name == "relationship" {
                if let name = element["name"], inherited.contains(name) {
                    throw ModelXMLError(line: element.line, "property '\(name)' of '\(draft.entity.name ?? "")' is already inherited from '\(parent.name ?? "")'")
                }
            }
        }
    }

    /// Checks that destinations and inverses exist and that an inverse leads back here.
    private func checkRelationships(of draft: EntityDraft, byName: [String: EntityDraft]) throws(ModelXMLError) {
        let entity = draft.entity
        for (relationship, line) in draft.relationships {
            let place = "relationship '\(entity.name ?? "").\(relationship.name)'"
            guard let destinationName = relationship.destinationEntityName, let destination = byName[destinationName]?.entity else {
                throw ModelXMLError(line: line, "destination entity '\(relationship.destinationEntityName ?? "")' of \(place) does not exist")
            }
            guard let inverseName = relationship.inverseName else { continue }
            guard let inverse = destination.relationshipsByName[inverseName] else {
                throw ModelXMLError(line: line, "inverse '\(inverseName)' of \(place) is not a relationship of '\(destinationName)'")
            }
            let inverseTarget = inverse.destinationEntityName.flatMap { byName[$0]?.entity }
            guard let inverseTarget, entity.isKindOf(entity: inverseTarget) || inverseTarget.isKindOf(entity: entity) else {
                throw ModelXMLError(line: line, "inverse '\(destinationName).\(inverseName)' of \(place) leads to '\(inverse.destinationEntityName ?? "")'")
            }
        }
    }

    private func uniquenessConstraints(of draft: EntityDraft) throws(ModelXMLError) -> [[Any]] {
        let known = draft.entity.propertiesByName
        var constraints: [[Any]] = []
        for element in draft.element.children(named: "uniquenessConstraint", in: "uniquenessConstraints") {
            var names: [Any] = []
            for constraint in element.children(named: "constraint") {
                guard let name = constraint["value"], known[name] != nil else {
                    throw ModelXMLError(line: constraint.line, "uniqueness constraint of '\(draft.entity.name ?? "")' names unknown property '\(constraint["value"] ?? "")'")
                }
                names.append(name)
            }
            if !names.isEmpty { constraints.append(names) }
        }
        return constraints
    }

    /// `<fetchIndex name=><fetchIndexElement property= type="Binary" order="ascending"/>`.
    /// Elements that index an expression instead of a property are left out (the README's
    /// deliberate differences): the index then covers the rest.
    private func fetchIndexes(of draft: EntityDraft) throws(ModelXMLError) -> [NSFetchIndexDescription] {
        let known = draft.entity.propertiesByName
        var indexes: [NSFetchIndexDescription] = []
        for element in draft.element.children(named: "fetchIndex") {
            let name = try identifier(element, kind: "fetch index")
            var elements: [NSFetchIndexElementDescription] = []
            for part in element.children(named: "fetchIndexElement") {
                guard let propertyName = part["property"] else { continue }
                guard let property = known[propertyName] else {
                    throw ModelXMLError(line: part.line, "fetch index '\(name)' of '\(draft.entity.name ?? "")' names unknown property '\(propertyName)'")
                }
                let indexed = NSFetchIndexElementDescription(property: property, collationType: part["type"] == "RTree" ? .rTree : .binary)
                indexed.isAscending = part["order"] != "descending"
                elements.append(indexed)
            }
            if !elements.isEmpty { indexes.append(NSFetchIndexDescription(name: name, elements: elements)) }
        }
        return indexes
    }

    // MARK: Shared pieces

    /// A required `name`, restricted to identifier characters as Xcode does; store and SQL
    /// names are derived from it, so nothing else may get through.
    func identifier(_ element: ModelXMLElement, kind: String) throws(ModelXMLError) -> String {
        guard let name = element["name"], !name.isEmpty else {
            throw ModelXMLError(line: element.line, "an <\(element.name)> element has no name")
        }
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
        else {
            throw ModelXMLError(line: element.line, "\(kind) name '\(name)' is not a valid identifier")
        }
        return name
    }

    /// `<userInfo><entry key= value=/></userInfo>` as a dictionary of strings, or nil if empty.
    func userInfo(of element: ModelXMLElement) -> [AnyHashable: Any]? {
        var info: [AnyHashable: Any] = [:]
        for entry in element.children(named: "entry", in: "userInfo") {
            guard let key = entry["key"] else { continue }
            info[key] = entry["value"] ?? ""
        }
        return info.isEmpty ? nil : info
    }
}
