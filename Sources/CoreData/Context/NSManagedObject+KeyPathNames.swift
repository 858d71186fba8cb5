/// Swift key paths to model key paths: `\Walk.dog.name` → `"dog.name"`.
///
/// Linux key paths carry no property names, so the key path is read on a throwaway probe
/// instance whose `@Managed` accessors record the keys they are asked for; to-one steps hand
/// back probes of the destination class so a chain records every step. Results are cached.
extension NSManagedObject {
    private static let keyPathNames = Locked<[AnyKeyPath: String]>([:])

    static func propertyName(for keyPath: AnyKeyPath) -> String? {
        if let cached = keyPathNames.withLock({ $0[keyPath] }) { return cached }
        guard let rootClass = type(of: keyPath).rootType as? NSManagedObject.Type else {
            return ForeignKeyPathNaming.name(for: keyPath)
        }
        guard let entity = ModelRegistry.shared.entity(for: rootClass) else { return nil }
        let recorder = KeyRecorder()
        let probe = rootClass.init(_entity: entity, insertInto: nil)
        probe.keyRecorder = recorder
        _ = probe[keyPath: keyPath]
        guard !recorder.keys.isEmpty else { return nil }
        let name = recorder.keys.joined(separator: ".")
        keyPathNames.withLock { $0[keyPath] = name }
        return name
    }

    /// What a probe answers for `key`: a probe of the destination for a to-one relationship,
    /// nil otherwise.
    func probeValue(forKey key: String, recorder: KeyRecorder) -> Any? {
        recorder.keys.append(key)
        guard let relationship = entity.relationshipsByName[key], !relationship.isToMany,
              let destination = relationship.destinationEntity else { return nil }
        let destinationClass = ManagedObjectClassRegistry.shared.objectClass(for: destination)
        let probe = destinationClass.init(_entity: destination, insertInto: nil)
        probe.keyRecorder = recorder
        return probe
    }
}
