/// A chain of relationships leading from the fetched entity to objects whose changes matter to
/// fetched objects: `bucket` in `relationshipKeyPathsForRefreshing = ["bucket.name"]`, `team`
/// in `sectionNameKeyPath: "team.zone"`, or in a predicate `team.zone == "Europe"`.
///
/// When such an object changes, the objects reaching it are found by walking inverse
/// relationships back (O(referrers)), or, for a relationship without an inverse, by scanning
/// the fetched objects once (O(n); an object outside the results is then not found, so a
/// predicate through such a relationship cannot admit it until it changes itself).
struct RelationshipRefreshPath {
    /// From the fetched entity outwards; every element is a relationship.
    let relationships: [NSRelationshipDescription]
    /// Whether referrers are reported as updated (`relationshipKeyPathsForRefreshing`); paths
    /// used only for sorting or sectioning just re-place their referrers.
    let refreshesContent: Bool

    /// The paths for a request: those asked to refresh, and those its sort descriptors,
    /// section key path and predicate read through.
    static func paths(
        from entity: NSEntityDescription, refreshing: Set<String>, placing: [String]
    ) -> [RelationshipRefreshPath] {
        var byChain: [[String]: (relationships: [NSRelationshipDescription], refreshes: Bool)] = [:]
        func add(_ keyPath: String, refreshes: Bool) {
            var relationships: [NSRelationshipDescription] = []
            var current: NSEntityDescription? = entity
            for component in keyPath.split(separator: ".").map(String.init) {
                guard let relationship = current?.relationshipsByName[component] else { break }
                relationships.append(relationship)
                current = relationship.destinationEntity
            }
            guard !relationships.isEmpty else { return }
            let chain = relationships.map(\.name)
            let existing = byChain[chain]?.refreshes ?? false
            byChain[chain] = (relationships, existing || refreshes)
        }
        for keyPath in refreshing.sorted() { add(keyPath, refreshes: true) }
        for keyPath in placing { add(keyPath, refreshes: false) }
        return byChain.keys.sorted { $0.joined(separator: ".") < $1.joined(separator: ".") }.map {
            RelationshipRefreshPath(relationships: byChain[$0]!.relationships, refreshesContent: byChain[$0]!.refreshes)
        }
    }

    /// The objects of the fetched entity that reach any of `changed` along this path: fetched
    /// ones, and (through inverses) ones a predicate over this path may now admit.
    func referrers(
        referring changed: Set<NSManagedObject>, in snapshot: ResultsSnapshot<ResultIdentity, ResultSortKey>
    ) -> [NSManagedObject] {
        var found: [ObjectIdentifier: NSManagedObject] = [:]
        for level in relationships.indices {
            guard let destination = relationships[level].destinationEntity else { continue }
            let targets = changed.filter { $0.entity.isKindOf(entity: destination) }
            guard !targets.isEmpty else { continue }
            var current = Array(targets)
            var walkedBack = true
            for step in stride(from: level, through: 0, by: -1) {
                guard let inverse = relationships[step].inverseRelationship else {
                    walkedBack = false
                    break
                }
                current = current.flatMap { Self.related($0, along: inverse.name) }
            }
            if walkedBack {
                for object in current { found[ObjectIdentifier(object)] = object }
            } else {
                // No inverse somewhere on the way: look from the fetched side instead.
                let wanted = Set(targets.map(ObjectIdentifier.init))
                let prefix = relationships[...level].map(\.name).joined(separator: ".")
                for section in snapshot.sections {
                    for row in section.rows {
                        let reached = Self.objects(in: row.id.object.value(forKeyPath: prefix))
                        if reached.contains(where: { wanted.contains(ObjectIdentifier($0)) }) {
                            found[ObjectIdentifier(row.id.object)] = row.id.object
                        }
                    }
                }
            }
        }
        return Array(found.values)
    }

    private static func related(_ object: NSManagedObject, along key: String) -> [NSManagedObject] {
        guard !object.isDeleted || object.managedObjectContext != nil else { return [] }
        return objects(in: object.value(forKey: key))
    }

    private static func objects(in value: Any?) -> [NSManagedObject] {
        switch value {
        case let object as NSManagedObject: [object]
        case let set as NSSet: set.allObjects.compactMap { $0 as? NSManagedObject }
        case let ordered as NSOrderedSet: ordered.array.compactMap { $0 as? NSManagedObject }
        case let array as [Any]: array.flatMap { objects(in: $0) }
        case let set as Set<NSManagedObject>: Array(set)
        default: []
        }
    }
}
