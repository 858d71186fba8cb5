/// A fetched object as the engine's row identity: compared and hashed by reference.
///
/// Not the object ID: an inserted object's ID changes from temporary to permanent when it is
/// saved, while the object itself (uniqued by its context) stays the same row.
struct ResultIdentity: Hashable {
    let object: NSManagedObject

    init(_ object: NSManagedObject) {
        self.object = object
    }

    static func == (lhs: ResultIdentity, rhs: ResultIdentity) -> Bool {
        lhs.object === rhs.object
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(object))
    }
}
