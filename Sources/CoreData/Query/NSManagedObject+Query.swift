/// Managed objects as the query language reads them: attributes as Foundation values, to-one
/// relationships as objects, to-many as sets (members gathered by `KeyPathReader`).
extension NSManagedObject: KeyValueReadable {
    func readValue(forKey key: String) -> Any? {
        value(forKey: key)
    }
}
