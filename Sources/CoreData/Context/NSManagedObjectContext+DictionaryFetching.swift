/// Dictionary results: the named properties of each matching object.
extension NSManagedObjectContext {
    func dictionaryResults<T>(for request: NSFetchRequest<T>, fetch: StoreFetch) throws -> [NSDictionary] {
        let names = try (request.propertiesToFetch ?? fetch.entity.properties.filter { !$0.isTransient }).map { property -> String in
            if let name = property as? String { return name }
            if let description = property as? NSPropertyDescription { return description.name }
            throw CoreDataError.misuse("propertiesToFetch holds \(property), which is neither a name nor a property description")
        }
        let objects = try matchingObjects(fetch, includesPendingChanges: request.includesPendingChanges)
        var seen = Set<NSDictionary>()
        var results: [NSDictionary] = []
        for object in objects {
            var entry: [String: Any] = [:]
            for name in names {
                let value = object.value(forKeyPath: name)
                if let related = value as? NSManagedObject { entry[name] = related.objectID } else if let value { entry[name] = value }
            }
            let dictionary = NSDictionary(dictionary: entry)
            if request.returnsDistinctResults, !seen.insert(dictionary).inserted { continue }
            results.append(dictionary)
        }
        return results
    }

    private func matchingObjects(_ fetch: StoreFetch, includesPendingChanges: Bool) throws -> [NSManagedObject] {
        try matchingObjectIDs(fetch, includesPendingChanges: includesPendingChanges).map { object(with: $0) }
    }
}
