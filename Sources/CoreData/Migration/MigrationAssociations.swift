/// Which source instance became which destination instances, per entity mapping: the tables
/// behind `NSMigrationManager`'s instance lookups and the second pass. Object IDs rather than
/// objects, so the migration's contexts can let go of objects between batches.
struct MigrationAssociations {
    private var destinationsBySource: [String: [NSManagedObjectID: [NSManagedObjectID]]] = [:]
    private var sourcesByDestination: [String: [NSManagedObjectID: [NSManagedObjectID]]] = [:]
    /// Every mapping's destinations of a source, for relationships whose values are source objects.
    private var anyDestinationsBySource: [NSManagedObjectID: [NSManagedObjectID]] = [:]
    /// Each mapping's pairs in the order they were associated, so passes run in creation order.
    private var pairs: [String: [(source: NSManagedObjectID, destination: NSManagedObjectID)]] = [:]

    mutating func associate(source: NSManagedObjectID, destination: NSManagedObjectID, mapping: String) {
        guard !(destinationsBySource[mapping]?[source]?.contains(destination) ?? false) else { return }
        destinationsBySource[mapping, default: [:]][source, default: []].append(destination)
        sourcesByDestination[mapping, default: [:]][destination, default: []].append(source)
        anyDestinationsBySource[source, default: []].append(destination)
        pairs[mapping, default: []].append((source, destination))
    }

    func destinations(of source: NSManagedObjectID, mapping: String) -> [NSManagedObjectID] {
        destinationsBySource[mapping]?[source] ?? []
    }

    func sources(of destination: NSManagedObjectID, mapping: String) -> [NSManagedObjectID] {
        sourcesByDestination[mapping]?[destination] ?? []
    }

    /// The destinations `source` became under any mapping.
    func destinations(of source: NSManagedObjectID) -> [NSManagedObjectID] {
        anyDestinationsBySource[source] ?? []
    }

    /// Each of the mapping's destinations once, in creation order.
    func allDestinations(mapping: String) -> [NSManagedObjectID] {
        unique(pairs[mapping]?.map(\.destination) ?? [])
    }

    /// Each of the mapping's sources once, in creation order.
    func allSources(mapping: String) -> [NSManagedObjectID] {
        unique(pairs[mapping]?.map(\.source) ?? [])
    }

    private func unique(_ ids: [NSManagedObjectID]) -> [NSManagedObjectID] {
        var seen = Set<NSManagedObjectID>()
        return ids.filter { seen.insert($0).inserted }
    }
}
