/// Reading fetched properties (`NSFetchedPropertyDescription`).
extension NSManagedObject {
    /// The results of `property`'s request with `$FETCH_SOURCE` bound to this object: fetched
    /// in the object's context the first time they are read, then kept until the object is
    /// refreshed or turned into a fault, as on Apple platforms. A failing fetch reads as an
    /// empty array, since key-value coding cannot throw.
    func fetchedPropertyValue(_ property: NSFetchedPropertyDescription) -> [Any] {
        if let results = fetchedPropertyResults[property.name] { return results }
        guard let template = property.fetchRequest, let context = managedObjectContext else { return [] }
        let request = template.copyRequest(as: NSFetchRequestResult.self)
        request.predicate = template.predicate?.withSubstitutionVariables(["FETCH_SOURCE": self, "FETCHED_PROPERTY": property])
        let results: [Any] = (try? context.fetch(request)) ?? []
        fetchedPropertyResults[property.name] = results
        return results
    }
}
