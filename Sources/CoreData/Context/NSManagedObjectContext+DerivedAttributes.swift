/// Derived attributes (`NSDerivedAttributeDescription`) are brought up to date as a save to the
/// store begins, before validation, so the rows written hold them and the objects show them.
extension NSManagedObjectContext {
    /// Recomputes the derived attributes of every object this save writes, and of the objects
    /// that derive from a changed one through the inverse of their expression's first
    /// relationship (a book's `authorName` when its author is renamed).
    func updateDerivedAttributes() {
        guard let model = persistentStoreCoordinator?.managedObjectModel else { return }
        let derived = model.entities.flatMap { entity in
            entity.properties.compactMap { $0 as? NSDerivedAttributeDescription }.filter { $0.entity === entity }
        }
        guard !derived.isEmpty else { return }
        let changed = Array(insertedSet) + Array(updatedObjects)
        var targets = changed
        var seen = Set(changed.map(ObjectIdentifier.init))
        for attribute in derived {
            for relationship in attribute.firstRelationships {
                guard let inverse = relationship.inverseRelationship, let destination = relationship.destinationEntity else { continue }
                for object in changed where object.entity.isKindOf(entity: destination) {
                    let related = object.value(forKey: inverse.name)
                    for dependent in (related as? NSManagedObject).map({ [$0] }) ?? ManagedValueNormalizer.objects(in: related)
                    where !dependent.deletedFlag && seen.insert(ObjectIdentifier(dependent)).inserted {
                        targets.append(dependent)
                    }
                }
            }
        }
        for object in targets where !object.deletedFlag {
            for case let attribute as NSDerivedAttributeDescription in object.entity.properties {
                object.updateDerivedValue(of: attribute)
            }
        }
        processPendingChanges()
    }
}

extension NSManagedObject {
    /// Sets `attribute` to its expression's value, unless it already holds it (an object whose
    /// derived value did not change is not made dirty).
    fileprivate func updateDerivedValue(of attribute: NSDerivedAttributeDescription) {
        guard let expression = attribute.derivationExpression else { return }
        let computed = try? PredicateEvaluator.evaluate(expression.node, self)
        let value = StoredValue(computed, for: attribute).map { RowValues.foundationValue($0, of: attribute) }
        guard !NSPropertyDescription.valuesEqual(primitiveValue(forKey: attribute.name), value) else { return }
        setValue(value, forKey: attribute.name)
    }
}
