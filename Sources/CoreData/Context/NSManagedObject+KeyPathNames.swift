/// Swift key paths to model key paths: `\Walk.dog.name` → `"dog.name"`.
///
/// Linux key paths carry no property names, so the key path is read on a throwaway probe
/// instance whose `@Managed` accessors record the keys they are asked for; to-one steps hand
/// back probes of the destination class so a chain records every step. Results are cached.
extension NSManagedObject {
    // Key paths are not Sendable, so the cache is guarded by a lock rather than a Mutex.
    private nonisolated(unsafe) static var keyPathNames: [AnyKeyPath: String] = [:]
    private static let keyPathNamesLock = NSLock()

    static func propertyName(for keyPath: AnyKeyPath) -> String? {
        if let cached = keyPathNamesLock.withLock({ keyPathNames[keyPath] }) { return cached }
        guard let rootClass = type(of: keyPath).rootType as? NSManagedObject.Type,
              let entity = ModelRegistry.shared.entity(for: rootClass) else { return nil }
        let recorder = KeyRecorder()
        let probe = rootClass.init(entity: entity, insertInto: nil)
        probe.keyRecorder = recorder
        _ = probe[keyPath: keyPath]
        guard !recorder.keys.isEmpty else { return nil }
        let name = recorder.keys.joined(separator: ".")
        keyPathNamesLock.withLock { keyPathNames[keyPath] = name }
        return name
    }

    /// What a probe answers for `key`: a probe of the destination for a to-one relationship,
    /// nil otherwise.
    func probeValue(forKey key: String, recorder: KeyRecorder) -> Any? {
        recorder.keys.append(key)
        guard let relationship = entity.relationshipsByName[key], !relationship.isToMany,
              let destination = relationship.destinationEntity else { return nil }
        let destinationClass = ManagedObjectClassRegistry.shared.objectClass(for: destination)
        let probe = destinationClass.init(entity: destination, insertInto: nil)
        probe.keyRecorder = recorder
        return probe
    }
}
