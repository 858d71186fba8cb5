/// A property whose value is the result of a fetch, run the first time the property is read on
/// an object and kept until the object is refreshed (Apple's fetched properties are not live).
///
/// The request's predicate may name the object being read as `$FETCH_SOURCE` and this
/// description as `$FETCHED_PROPERTY`. The value is an array of the fetched results, read
/// through key-value coding:
/// ```swift
/// let recent = NSFetchedPropertyDescription()
/// recent.name = "recentBooks"
/// let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
/// request.predicate = NSPredicate(format: "author == $FETCH_SOURCE AND year > 2000")
/// recent.fetchRequest = request
/// author.value(forKey: "recentBooks") as? [NSManagedObject]
/// ```
open class NSFetchedPropertyDescription: NSPropertyDescription, @unchecked Sendable {
    /// The fetch run for each object; `$FETCH_SOURCE` in its predicate names that object.
    public var fetchRequest: NSFetchRequest<NSFetchRequestResult>? { willSet { requireEditable("fetchRequest") } }

    /// A fetched property with no request yet.
    public override init() { super.init() }

    /// Always true: nothing of a fetched property is stored, so every path that reads,
    /// writes, validates or compares stored values passes it by.
    open override var isTransient: Bool {
        get { true }
        set {}
    }

    override func copyProperty() -> NSPropertyDescription {
        let copy = NSFetchedPropertyDescription()
        copyCommon(into: copy)
        copy.fetchRequest = fetchRequest.map { $0.copyRequest(as: NSFetchRequestResult.self) }
        return copy
    }
}
