/// A chain of relationships leading from the fetched entity to objects whose changes matter to
/// fetched objects: `bucket` in `relationshipKeyPathsForRefreshing = ["bucket.name"]`, `team`
/// in `sectionNameKeyPath: "team.zone"`, or in a predicate `team.zone == "Europe"`.
///
/// When such an object changes (for a refreshing path, in a key the path lists: `name` of the
/// bucket, never its other keys), the objects reaching it are found by walking inverse
/// relationships back (O(referrers)), or, for a relationship without an inverse, by scanning
/// the fetched objects once (O(n); an object outside the results is then not found, so a
/// predicate through such a relationship cannot admit it until it changes itself).
struct RelationshipRefreshPath {
    /// From the fetched entity outwards; every element is a relationship.
    let relationships: [NSRelationshipDescription]
    /// Whether referrers are reported as updated (`relationshipKeyPathsForRefreshing`); paths
    /// used only for sorting or sectioning just re-place their referrers.
    let refreshesContent: Bool
    /// Per level, the keys of the objects there whose change matters: the next component of a
    /// listed key path (`name` for the buckets of `bucket.name`), or nil when any change does
    /// (the path ends at those objects, or it only places rows: predicates name key paths of
    /// every shape, and re-placing an unmoved row reports nothing).
    let watchedKeys: [Set<String>?]

    /// The paths for a request: those asked to refresh, and those its sort descriptors,
    /// section key path and predicate read through. A refreshing and a placing path along the
    /// same relationships stay two paths, so a key watched only for placement never redraws.
    static func paths(
        from entity: NSEntityDescription, refreshing: Set<String>, placing: [String]
    ) -> [RelationshipRefreshPath] {
        struct Chain: Hashable {
            let names: [String]
            let refreshes: Bool
        }
        var byChain: [Chain: (relationships: [NSRelationshipDescription], watched: [Set<String>?])] = [:]
        func add(_ keyPath: String, refreshes: Bool) {
            let components = keyPath.split(separator: ".").map(String.init)
            var relationships: [NSRelationshipDescription] = []
            var current: NSEntityDescription? = entity
            for component in components {
                guard let relationship = current?.relationshipsByName[component] else { break }
                relationships.append(relationship)
                current = relationship.destinationEntity
            }
            guard !relationships.isEmpty else { return }
            let watched: [Set<String>?] = relationships.indices.map { level in
                refreshes && level + 1 < components.count ? [components[level + 1]] : nil
            }
            let chain = Chain(names: relationships.map(\.name), refreshes: refreshes)
            guard let existing = byChain[chain] else {
                byChain[chain] = (relationships, watched)
                return
            }
            let merged = zip(existing.watched, watched).map { old, new -> Set<String>? in
                guard let old, let new else { return nil }
                return old.union(new)
            }
            byChain[chain] = (relationships, merged)
        }
        for keyPath in refreshing.sorted() { add(keyPath, refreshes: true) }
        for keyPath in placing { add(keyPath, refreshes: false) }
        let order = byChain.keys.sorted {
            ($0.names.joined(separator: "."), $0.refreshes ? 0 : 1) < ($1.names.joined(separator: "."), $1.refreshes ? 0 : 1)
        }
        return order.map {
            RelationshipRefreshPath(relationships: byChain[$0]!.relationships, refreshesContent: $0.refreshes,
                                    watchedKeys: byChain[$0]!.watched)
        }
    }

    /// Whether a change to `object`, at `level` of this path, matters; `changedKeys` nil means
    /// the keys are unknown (a new, deleted or refreshed object), which always matters.
    private func matters(_ changedKeys: Set<String>?, at level: Int) -> Bool {
        guard let watched = watchedKeys[level], let changedKeys else { return true }
        return !watched.isDisjoint(with: changedKeys)
    }

    /// The objects of the fetched entity that reach any of `changed` along this path: fetched
    /// ones, and (through inverses) ones a predicate over this path may now admit.
    ///
    /// - parameter changedKeys: the keys that changed on an object in this event, nil when
    ///   unknown.
    func referrers(
        referring changed: Set<NSManagedObject>, in snapshot: ResultsSnapshot<ResultIdentity, ResultSortKey>,
        changedKeys: (NSManagedObject) -> Set<String>?
    ) -> [NSManagedObject] {
        var found: [ObjectIdentifier: NSManagedObject] = [:]
        for level in relationships.indices {
            guard let destination = relationships[level].destinationEntity else { continue }
            let targets = changed.filter { $0.entity.isKindOf(entity: destination) && matters(changedKeys($0), at: level) }
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
