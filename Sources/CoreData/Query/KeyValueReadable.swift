/// Anything a predicate or sort descriptor can read keys from in memory.
///
/// `NSManagedObject` conforms (attributes as Foundation values, to-one relationships as
/// `NSManagedObject?`, to-many as `[NSManagedObject]`), as do `[String: Any]` and
/// `NSDictionary`, so dictionary fetch results and plain dictionaries filter the same way.
protocol KeyValueReadable {
    func readValue(forKey key: String) -> Any?
}

extension Dictionary: KeyValueReadable where Key == String {
    func readValue(forKey key: String) -> Any? {
        self[key].flatMap { unwrapOptional($0) }
    }
}

extension NSDictionary: KeyValueReadable {
    func readValue(forKey key: String) -> Any? {
        object(forKey: key).flatMap { $0 is NSNull ? nil : $0 }
    }
}
