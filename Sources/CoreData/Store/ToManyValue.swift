/// Reading the members of a to-many value that a store subclass hands over, in whichever
/// collection it chose.
enum ToManyValue {
    /// The elements of an array, a Swift set, an `NSSet` or an `NSOrderedSet` (in its order);
    /// nil for anything else.
    static func elements(of value: Any) -> [Any]? {
        switch value {
        case let ordered as NSOrderedSet: ordered.array
        case let array as [Any]: array
        case let set as Set<AnyHashable>: Array(set)
        case let set as NSSet: set.allObjects
        default: nil
        }
    }
}
