/// The parts of a managed object's state that faults and unchanged fetched objects never use,
/// kept out of line: a million-row fetch makes a million objects, and every field inline costs
/// eight bytes of each.
final class ObjectBookkeeping {
    // The keys below are touched on every change, on the context's queue only; see
    // `NSManagedObject` for why the exclusivity check is dropped.
    @exclusivity(unchecked) var eventChangedKeys: ChangedKeys
    var deferredErrors: [NSError] = []
    /// Why the store could not give the row when the object last fired as a fault (its server
    /// unreachable, say). Until the object is refreshed it holds no values, and a save that
    /// includes it fails with this error rather than write what it never read.
    var unreadRowError: NSError?
    var insertionSerial: UInt64 = 0
    var keyRecorder: KeyRecorder?
    /// Properties set through `setPrimitiveValue(_:forKey:)` whose `didChangeValue(forKey:)`
    /// has not come yet.
    @exclusivity(unchecked) var primitivelyChangedKeys: Set<String> = []
    /// Results of fetched properties read since the object was last refreshed.
    var fetchedPropertyResults: [String: [Any]] = [:]

    init(index: PropertyIndex) {
        eventChangedKeys = ChangedKeys(index: index)
    }
}
