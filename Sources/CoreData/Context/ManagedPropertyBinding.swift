import Synchronization

/// A `@Managed` property bound to its slot: the macro declares one per property, as a static of
/// the class, and each access asks it where the value lives in the object's layout
/// (`PropertyIndex`) instead of looking the property up by name.
///
/// The slot is resolved by name the first time the property is read or written, and again only
/// when an object laid out by another index comes along (a model edited before use, a class
/// shared by entities of several models). The index it was resolved against and the slot share
/// one atomic word, so threads reading objects of the same class read and replace it without a
/// lock, and never see one index's slot paired with another index.
public final class ManagedPropertyBinding: Sendable {
    /// The model's name for the property.
    public let key: String

    /// Where a property's value lives in one layout.
    enum Slot: Equatable {
        /// A stored or transient attribute, at its ordinal.
        case attribute(Int)
        /// A persistent to-one relationship: the slot holds the related object's ID.
        case toOne(Int)
        /// A persistent to-many relationship: the slot holds its loaded members.
        case toMany(Int)
        /// Anything else (a fetched property, a transient relationship, an unknown key): read and
        /// written through key-value coding.
        case elsewhere
    }

    /// From the low bits up: the ordinal plus one (`ordinalBits`), the kind (`kindBits`: 0
    /// elsewhere, 1 attribute, 2 to-one, 3 to-many), then the serial of the index it was
    /// resolved against. Zero before the first resolution, which no index's serial matches
    /// (they start at one).
    private let resolution = Atomic<UInt64>(0)

    private static let ordinalBits: UInt64 = 16
    private static let kindBits: UInt64 = 2

    public init(key: String) {
        self.key = key
    }

    /// Where the value of `key` lives in objects laid out by `index`.
    func slot(in index: PropertyIndex) -> Slot {
        let resolved = resolution.load(ordering: .relaxed)
        if resolved >> (Self.ordinalBits + Self.kindBits) == index.serial { return Self.slot(unpacking: resolved) }
        let slot = Self.resolve(key, in: index)
        // An index past the serials or ordinals one word holds is resolved by name each time.
        if let packed = Self.pack(slot, serial: index.serial) { resolution.store(packed, ordering: .relaxed) }
        return slot
    }

    private static func resolve(_ key: String, in index: PropertyIndex) -> Slot {
        if let ordinal = index.attributeOrdinal(forName: key) { return .attribute(ordinal) }
        guard let ordinal = index.ordinals[key],
              let relationship = index.properties[ordinal] as? NSRelationshipDescription,
              !relationship.isTransient else { return .elsewhere }
        return relationship.isToMany ? .toMany(ordinal) : .toOne(ordinal)
    }

    private static func pack(_ slot: Slot, serial: UInt64) -> UInt64? {
        let (kind, ordinal): (UInt64, Int) = switch slot {
        case .elsewhere: (0, -1)
        case .attribute(let ordinal): (1, ordinal)
        case .toOne(let ordinal): (2, ordinal)
        case .toMany(let ordinal): (3, ordinal)
        }
        let stored = UInt64(ordinal + 1)
        guard stored < 1 << ordinalBits, serial < 1 << (64 - ordinalBits - kindBits) else { return nil }
        return serial << (ordinalBits + kindBits) | kind << ordinalBits | stored
    }

    private static func slot(unpacking resolved: UInt64) -> Slot {
        let ordinal = Int(resolved & (1 << ordinalBits - 1)) - 1
        switch (resolved >> ordinalBits) & (1 << kindBits - 1) {
        case 1: return .attribute(ordinal)
        case 2: return .toOne(ordinal)
        case 3: return .toMany(ordinal)
        default: return .elsewhere
        }
    }
}
