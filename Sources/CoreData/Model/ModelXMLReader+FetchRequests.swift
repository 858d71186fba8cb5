/// Fetch request templates: `<fetchRequest name= entity= predicateString= .../>` elements.
extension ModelXMLReader {
    func buildFetchRequestTemplates(entities: [EntityDraft]) throws(ModelXMLError)
        -> [(name: String, request: NSFetchRequest<NSFetchRequestResult>)]
    {
        let byName = Dictionary(entities.map { ($0.entity.name ?? "", $0.entity) }, uniquingKeysWith: { first, _ in first })
        var templates: [(name: String, request: NSFetchRequest<NSFetchRequestResult>)] = []
        var names = Set<String>()
        for element in root.children(named: "fetchRequest") {
            guard let name = element["name"], !name.isEmpty else {
                throw ModelXMLError(line: element.line, "a fetch request template has no name")
            }
            guard names.insert(name).inserted else {
                throw ModelXMLError(line: element.line, "fetch request template '\(name)' is defined twice")
            }
            templates.append((name, try fetchRequest(element, place: "fetch request template '\(name)'", entitiesByName: byName)))
        }
        return templates
    }

    /// A `<fetchRequest>` element as a request: a template's, or a fetched property's.
    func fetchRequest(_ element: ModelXMLElement, place: String,
                      entitiesByName: [String: NSEntityDescription]) throws(ModelXMLError) -> NSFetchRequest<NSFetchRequestResult> {
        guard let entityName = element["entity"], let entity = entitiesByName[entityName] else {
            throw ModelXMLError(line: element.line, "\(place) names no entity of this model ('\(element["entity"] ?? "")')")
        }
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: entityName)
        request.entity = entity
        if let format = element["predicateString"], !format.isEmpty {
            request.predicate = try templatePredicate(format, line: element.line, place: place)
        }
        if let limit = try count(element["fetchLimit"], line: element.line, place: place) { request.fetchLimit = limit }
        if let size = try count(element["fetchBatchSize"], line: element.line, place: place) { request.fetchBatchSize = size }
        if let offset = try count(element["fetchOffset"], line: element.line, place: place) { request.fetchOffset = offset }
        if let raw = try count(element["resultType"], line: element.line, place: place) {
            // Xcode writes the raw value: 0 objects, 1 object IDs, 2 dictionaries, 4 counts.
            guard [0, 1, 2, 4].contains(raw) else {
                throw ModelXMLError(line: element.line, "\(place) has unknown resultType '\(raw)'")
            }
            request.resultType = NSFetchRequestResultType(rawValue: UInt(raw))
        }
        // Only flags Xcode wrote override NSFetchRequest's own defaults.
        if element["includeSubentities"] != nil { request.includesSubentities = element.flag("includeSubentities") }
        if element["includePendingChanges"] != nil { request.includesPendingChanges = element.flag("includePendingChanges") }
        if element["includePropertyValues"] != nil { request.includesPropertyValues = element.flag("includePropertyValues") }
        if element["returnObjectsAsFaults"] != nil { request.returnsObjectsAsFaults = element.flag("returnObjectsAsFaults") }
        if element["returnDistinctResults"] != nil { request.returnsDistinctResults = element.flag("returnDistinctResults") }
        return request
    }

    /// Parses a template's predicate now, so a malformed one fails the load with its line
    /// rather than the first fetch (Apple raises on it).
    private func templatePredicate(_ format: String, line: Int, place: String) throws(ModelXMLError) -> NSPredicate {
        do {
            return try NSPredicate.parse(format: format, argumentArray: [])
        } catch {
            throw ModelXMLError(line: line, "the predicate of \(place) does not parse: \(error.localizedDescription)")
        }
    }
}
