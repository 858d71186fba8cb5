/// Maps the reference objects of incremental and atomic stores to the integer keys object IDs
/// carry, and back.
///
/// A positive integer reference is its own key, so IDs and their URIs (`p42`) stay the same
/// across launches, as they do for SQLite rows. Any other hashable reference (a string, a
/// UUID) gets a negative key the first time it is seen; those keys, and the URIs built from
/// them, hold within one process only. The table remembers the original object of every key
/// so `referenceObject(for:)` returns what the store gave, whatever its type.
final class ReferenceObjectTable: Sendable {
    private struct State {
        var keysByReference: [AnyHashable: Int64] = [:]
        var referencesByKey: [Int64: Any] = [:]
        var lastSurrogate: Int64 = 0
    }

    private let state = Locked(State())

    func key(for reference: Any) throws -> Int64 {
        if let integer = Self.positiveInteger(reference) {
            state.withLock { $0.referencesByKey[integer] = $0.referencesByKey[integer] ?? reference }
            return integer
        }
        guard let hashable = reference as? AnyHashable else {
            throw CoreDataError.misuse("A reference object must be a number, a string or another Hashable value; \(type(of: reference)) is not")
        }
        return state.withLock { state in
            if let key = state.keysByReference[hashable] { return key }
            state.lastSurrogate -= 1
            state.keysByReference[hashable] = state.lastSurrogate
            state.referencesByKey[state.lastSurrogate] = reference
            return state.lastSurrogate
        }
    }

    func reference(for key: Int64) -> Any {
        state.withLock { $0.referencesByKey[key] } ?? NSNumber(value: key)
    }

    /// The ID of the object `reference` names in `store`.
    func objectID(for entity: NSEntityDescription, reference: Any, in store: NSPersistentStore) -> NSManagedObjectID {
        // An unhashable reference cannot key an ID; Apple's framework raises here, and the
        // public methods calling this do not throw, so the ID carries a key no stored row has.
        store.objectID(for: entity, primaryKey: (try? key(for: reference)) ?? 0)
    }

    /// The reference object `objectID` of `store` was made from; `NSNull` for another store's ID.
    func reference(for objectID: NSManagedObjectID, in store: NSPersistentStore) -> Any {
        guard let key = objectID.primaryKey, objectID.persistentStore === store else { return NSNull() }
        return reference(for: key)
    }

    private static func positiveInteger(_ reference: Any) -> Int64? {
        let value: Int64? = switch reference {
        case let number as Int: Int64(number)
        case let number as Int64: number
        case let number as Int32: Int64(number)
        case let number as UInt: Int64(exactly: number)
        case let number as NSNumber where NSNumber(value: number.int64Value) == number: number.int64Value
        default: nil
        }
        return value.flatMap { $0 > 0 ? $0 : nil }
    }
}
