import Synchronization

/// Managed objects as the query language reads them: attributes as Foundation values, to-one
/// relationships as objects, to-many as sets (members gathered by `KeyPathReader`).
extension NSManagedObject: KeyValueReadable {
    func readValue(forKey key: String) -> Any? {
        value(forKey: key)
    }
}

/// Key paths are immutable values, safe to share; the compiler does not know them as Sendable.
private struct KeyPathNames: @unchecked Sendable {
    var names: [AnyKeyPath: String] = [:]
}

private let propertyNamesByKeyPath = Mutex(KeyPathNames())

extension NSManagedObject {
    /// The model key a Swift key path into a managed object subclass reads, found by reading
    /// the key path on a throwaway instance that records the keys it is asked for (`@Managed`
    /// properties read through `value(forKey:)`). Nil for a key path that reads no key.
    ///
    /// (Interim home in the Query room until the Context room provides its own.)
    static func propertyName(for keyPath: AnyKeyPath) -> String? {
        if let known = propertyNamesByKeyPath.withLock({ $0.names[keyPath] }) { return known }
        guard let rootType = type(of: keyPath).rootType as? NSManagedObject.Type else { return nil }
        let probe = rootType.init(entity: NSEntityDescription(), insertInto: nil)
        let recorder = KeyRecorder()
        probe.keyRecorder = recorder
        _ = probe[keyPath: keyPath]
        guard let key = recorder.keys.first else { return nil }
        propertyNamesByKeyPath.withLock { $0.names[keyPath] = key }
        return key
    }
}
