/// The three passes over the entity mappings: instances, relationships, validation.
extension NSMigrationManager {
    private enum Pass: Int, CaseIterable {
        case createInstances, createRelationships, validate
    }

    /// Runs on both contexts' queues. Each entity mapping keeps one policy for all three
    /// passes, so a policy may carry state from `begin` to `end`.
    func runPasses() throws {
        let mappings: [NSEntityMapping] = mappingModel.entityMappings ?? []
        let policies = try mappings.map(policy(for:))
        for pass in Pass.allCases {
            for (index, (mapping, policy)) in zip(mappings, policies).enumerated() {
                currentEntityMapping = mapping
                let report = { (fraction: Float) in self.report(pass, mapping: index, of: mappings.count, fraction: fraction) }
                switch pass {
                case .createInstances: try createInstances(mapping, policy, report)
                case .createRelationships: try createRelationships(mapping, policy, report)
                case .validate: try validate(mapping, policy)
                }
                report(1)
            }
        }
        try throwIfCancelled()
        try destinationContext.save()
    }

    private func createInstances(_ mapping: NSEntityMapping, _ policy: NSEntityMigrationPolicy, _ report: (Float) -> Void) throws {
        try policyStep { try policy.begin(mapping, with: self) }
        let sources = try sourceInstanceIDs(for: mapping)
        for (index, id) in sources.enumerated() {
            try throwIfCancelled()
            try policyStep { try policy.createDestinationInstances(forSource: sourceContext.object(with: id), in: mapping, manager: self) }
            try endOfInstance(index, report: { report(Float(index + 1) / Float(sources.count)) })
        }
        try policyStep { try policy.endInstanceCreation(forMapping: mapping, manager: self) }
    }

    private func createRelationships(_ mapping: NSEntityMapping, _ policy: NSEntityMigrationPolicy, _ report: (Float) -> Void) throws {
        let destinations = associations.allDestinations(mapping: mapping.name ?? "")
        for (index, id) in destinations.enumerated() {
            try throwIfCancelled()
            try policyStep { try policy.createRelationships(forDestination: destinationContext.object(with: id), in: mapping, manager: self) }
            try endOfInstance(index, report: { report(Float(index + 1) / Float(destinations.count)) })
        }
        try policyStep { try policy.endRelationshipCreation(forMapping: mapping, manager: self) }
    }

    /// The destination model's rules on every instance the mapping made (the batch saves
    /// skipped them, as relationships came later), then the policy's own checks.
    private func validate(_ mapping: NSEntityMapping, _ policy: NSEntityMigrationPolicy) throws {
        try throwIfCancelled()
        var errors: [NSError] = []
        for (index, id) in associations.allDestinations(mapping: mapping.name ?? "").enumerated() {
            do { try destinationContext.object(with: id).validateForInsert() } catch let error as NSError { errors.append(error) }
            // Turning the checked objects back into faults keeps memory bounded without
            // dropping changes a policy has not saved yet.
            if (index + 1) % batchSize == 0 { destinationContext.refreshAllObjects() }
        }
        try NSManagedObject.throwCombined(errors)
        try policyStep { try policy.performCustomValidation(forMapping: mapping, manager: self) }
        try policyStep { try policy.end(mapping, manager: self) }
    }

    /// Reports progress, and every `batchSize` instances writes the destination objects made
    /// so far (unvalidated: their relationships may come in the next pass) and lets both
    /// contexts turn their objects back into faults.
    private func endOfInstance(_ index: Int, report: () -> Void) throws {
        report()
        guard (index + 1) % batchSize == 0 else { return }
        destinationContext.validatesOnSave = false
        defer { destinationContext.validatesOnSave = true }
        try destinationContext.save()
        destinationContext.refreshAllObjects()
        sourceContext.refreshAllObjects()
    }

    /// Runs one step of a policy; what it throws reaches `migrateStore`'s caller unchanged,
    /// as Apple's manager returns the error a policy's step set.
    private func policyStep(_ body: () throws -> Void) throws {
        do { try body() } catch { throw PolicyFailure(error: error) }
    }

    private func throwIfCancelled() throws {
        if let error = cancellation.withLock({ $0 }) { throw error }
    }

    private func report(_ pass: Pass, mapping index: Int, of count: Int, fraction: Float) {
        let done = (Float(pass.rawValue) + (Float(index) + fraction) / Float(max(count, 1))) / Float(Pass.allCases.count)
        progress.withLock { $0 = max($0, min(done, 1)) }
    }

    /// The source instances a mapping migrates: what its `sourceExpression` gives (a fetch
    /// request, run on the source context, or objects), else every instance of the source
    /// entity itself, subentities excluded. None for add and remove mappings.
    private func sourceInstanceIDs(for mapping: NSEntityMapping) throws -> [NSManagedObjectID] {
        guard ![.addEntityMappingType, .removeEntityMappingType].contains(mapping.mappingType) else { return [] }
        if var expression = mapping.sourceExpression {
            // Xcode's FETCH(request, $manager.sourceContext, NO): fetch the request's object
            // IDs instead of its objects, so the batches can let go of the objects.
            if case .fetch(let request, _, false) = expression.node { expression = NSExpression(node: request) }
            let value = try expression.value(with: nil, variables: ["manager": self, "entityMapping": mapping])
            if let request = value as? NSFetchRequest<NSFetchRequestResult> {
                request.resultType = .managedObjectIDResultType
                return try sourceContext.fetch(request).compactMap { $0 as? NSManagedObjectID }
            }
            return (collectionElements(of: value) ?? [value]).compactMap { ($0 as? NSManagedObject)?.objectID }
        }
        guard let name = mapping.sourceEntityName else { return [] }
        let request = NSFetchRequest<NSManagedObjectID>(entityName: name)
        request.includesSubentities = false
        request.resultType = .managedObjectIDResultType
        return try sourceContext.fetch(request)
    }

    /// A new instance of the policy class the mapping names (the base class when none).
    private func policy(for mapping: NSEntityMapping) throws -> NSEntityMigrationPolicy {
        guard let name = mapping.entityMigrationPolicyClassName, !name.isEmpty, name != "NSEntityMigrationPolicy" else {
            return NSEntityMigrationPolicy()
        }
        guard let policyClass = LoadedClassSearch.classes(named: name, as: NSEntityMigrationPolicy.Type.self).first else {
            throw CoreDataError.make(NSEntityMigrationPolicyError,
                "No NSEntityMigrationPolicy subclass named '\(name)' (entity mapping '\(mapping.name ?? "")') is loaded")
        }
        return policyClass.init()
    }
}
