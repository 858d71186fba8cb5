/// The loaded members of one to-many relationship, in insertion order (which is the order of an
/// ordered relationship), with O(1) membership.
///
/// A class, so that linking a member changes the one list its owner holds in place. As a value
/// kept in the owner's `[String: Any]` storage, every link copied the whole list out, changed the
/// copy and stored it back: linking n members to one owner cost O(n²).
///
/// Membership is by identity (`ObjectIdentifier`), not by `NSObject`'s `isEqual(_:)` and `hash`:
/// those are dispatched dynamically on every probe, and a subclass may override them.
///
/// Complexity: `append` and `contains` O(1) amortised; `insert(_:at:)` and `remove` O(n), as
/// the array shifts the elements after the position.
final class ToManyMembers {
    /// The members in order, without copying.
    private(set) var objects: [NSManagedObject] = []
    private var identities: Set<ObjectIdentifier> = []

    init(_ objects: [NSManagedObject] = []) {
        replace(with: objects)
    }

    var count: Int { objects.count }

    func contains(_ object: NSManagedObject) -> Bool { identities.contains(ObjectIdentifier(object)) }

    /// Adds `object` at the end; false if it is already a member.
    @discardableResult
    func append(_ object: NSManagedObject) -> Bool {
        insert(object, at: objects.count)
    }

    /// Adds `object` at `index` (or the end); false if it is already a member.
    @discardableResult
    func insert(_ object: NSManagedObject, at index: Int) -> Bool {
        guard identities.insert(ObjectIdentifier(object)).inserted else { return false }
        objects.insert(object, at: min(index, objects.count))
        return true
    }

    /// Replaces the members with `objects`, in their order (a repeated object once, first).
    func replace(with objects: [NSManagedObject]) {
        self.objects = []
        self.objects.reserveCapacity(objects.count)
        identities = Set(minimumCapacity: objects.count)
        for object in objects where identities.insert(ObjectIdentifier(object)).inserted {
            self.objects.append(object)
        }
    }

    /// Removes `object`; false if it was not a member.
    @discardableResult
    func remove(_ object: NSManagedObject) -> Bool {
        guard identities.remove(ObjectIdentifier(object)) != nil,
              let position = objects.firstIndex(where: { $0 === object }) else { return false }
        objects.remove(at: position)
        return true
    }
}

/// One change to a to-many relationship's members, described before it is applied so that
/// `NSManagedObject.editMembers(forKey:_:)` can tell a no-op from a change first.
enum MembersEdit {
    /// Adds a member at a position, or at the end for nil.
    case insert(NSManagedObject, at: Int?)
    case remove(NSManagedObject)
    /// Puts the (same) members in the given order.
    case reorder([NSManagedObject])

    func changes(_ members: ToManyMembers) -> Bool {
        switch self {
        case .insert(let object, _): !members.contains(object)
        case .remove(let object): members.contains(object)
        case .reorder(let objects): !members.objects.elementsEqual(objects, by: ===)
        }
    }

    func apply(to members: ToManyMembers) {
        switch self {
        case .insert(let object, let index?): members.insert(object, at: index)
        case .insert(let object, nil): members.append(object)
        case .remove(let object): members.remove(object)
        case .reorder(let objects): members.replace(with: objects)
        }
    }
}

extension ToManyMembers {
    /// `value` if it is a to-many member list. Compares the dynamic type first: `as?` from `Any`
    /// to a class, when it fails on a `String`, bridges the string to an `NSString` to try the
    /// cast, which cost an allocation on every attribute read.
    @inline(__always)
    static func of(_ value: Any?) -> ToManyMembers? {
        guard let value, type(of: value) == ToManyMembers.self else { return nil }
        return (value as! ToManyMembers)
    }
}
