/// The objects a context holds, found by what names them (`ObjectName`).
///
/// An open-addressing table of the objects alone, one word a slot: a dictionary keyed by
/// `NSManagedObjectID` held a key and an object a bucket, and needed every fault to have made
/// its ID. Here an object is hashed and compared by its `registrationName`, which a batched
/// fault reads from its fetch's key list, so a million-row batched fetch registers a million
/// faults without a million IDs: 16 bytes a fault at most (8 at a load of one half) instead of
/// about 33, plus the 48 of the ID.
///
/// Invariants: `slots.count` is zero or a power of two `1 << (64 - shift)`; at most three
/// quarters of the slots are full; no two objects have equal names; an object sits at its
/// home slot (the hash of its key) or after it with no empty slot in between (linear probing;
/// removal shifts later objects back rather than leaving markers).
struct RegisteredObjects {
    private var slots: [NSManagedObject?] = []
    /// Shifts the 64-bit hash down to a slot index.
    private var shift = 64
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The object `id` names, if registered.
    subscript(id: NSManagedObjectID) -> NSManagedObject? {
        object(named: id.name)
    }

    func object(named name: ObjectName) -> NSManagedObject? {
        slot(named: name).flatMap { slots[$0] }
    }

    /// Registers `object`, replacing an object of the same name.
    mutating func insert(_ object: NSManagedObject) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let name = object.registrationName
        var slot = home(of: name.key)
        while let present = slots[slot] {
            if present.registrationName == name {
                slots[slot] = object
                return
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = object
        count += 1
    }

    /// Unregisters the object named as `object` is (itself, or one it replaced).
    mutating func remove(_ object: NSManagedObject) {
        removeObject(named: object.registrationName)
    }

    /// Unregisters the object `id` names and returns it.
    @discardableResult
    mutating func removeValue(forKey id: NSManagedObjectID) -> NSManagedObject? {
        removeObject(named: id.name)
    }

    @discardableResult
    private mutating func removeObject(named name: ObjectName) -> NSManagedObject? {
        guard count > 0 else { return nil }
        let mask = slots.count - 1
        var hole = home(of: name.key)
        while let object = slots[hole], !(object.registrationName == name) { hole = (hole + 1) & mask }
        guard let removed = slots[hole] else { return nil }
        slots[hole] = nil
        count -= 1
        // Move back each later object of the run whose probe from its home passes the hole,
        // so look-ups, which stop at the first empty slot, still reach it.
        var next = (hole + 1) & mask
        while let object = slots[next] {
            let fromHome = (next - home(of: object.registrationName.key)) & mask
            if fromHome >= (next - hole) & mask {
                slots[hole] = object
                slots[next] = nil
                hole = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    /// Unregisters each object that nothing but this table references and that `releasable`
    /// accepts, which frees it; `willRelease` sees each first. Returns how many went.
    ///
    /// O(n): one pass, then one rehash into a table of the same size if any went (removing in
    /// place would shift objects back past the pass).
    mutating func releaseUnreferenced(where releasable: (NSManagedObject) -> Bool,
                                      willRelease: (NSManagedObject) -> Void) -> Int {
        var released = 0
        for slot in slots.indices where slots[slot] != nil {
            guard isKnownUniquelyReferenced(&slots[slot]), let object = slots[slot], releasable(object) else { continue }
            willRelease(object)
            slots[slot] = nil
            released += 1
        }
        guard released > 0 else { return 0 }
        count -= released
        rehash(slotBits: 64 - shift)
        return released
    }

    /// `releaseUnreferenced(where:willRelease:)` for the objects `ids` name only: O(k).
    mutating func releaseUnreferenced(_ ids: [NSManagedObjectID], where releasable: (NSManagedObject) -> Bool,
                                      willRelease: (NSManagedObject) -> Void) -> Int {
        var released = 0
        for id in ids {
            guard let slot = slot(named: id.name), isKnownUniquelyReferenced(&slots[slot]),
                  let object = slots[slot], releasable(object) else { continue }
            willRelease(object)
            removeObject(named: id.name)
            released += 1
        }
        return released
    }

    private func slot(named name: ObjectName) -> Int? {
        guard count > 0 else { return nil }
        var slot = home(of: name.key)
        while let object = slots[slot] {
            if object.registrationName == name { return slot }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Every registered object, in no particular order.
    var objects: [NSManagedObject] { slots.compactMap { $0 } }

    /// The IDs of every registered object (made for faults that had none).
    var ids: [NSManagedObjectID] { slots.compactMap { $0?.objectID } }

    /// Fibonacci hashing: keys are mostly consecutive row numbers, and multiplying by 2^64/φ
    /// spreads them over the high bits, which the shift keeps.
    private func home(of key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// Makes room for `capacity` objects at once: a fetch registering its rows rehashes the
    /// table once rather than at each doubling.
    mutating func reserveCapacity(_ capacity: Int) {
        guard capacity * 4 > slots.count * 3 else { return }
        var bits = 4
        while capacity * 4 > (1 << bits) * 3 { bits += 1 }
        rehash(slotBits: bits)
    }

    private mutating func grow() {
        rehash(slotBits: slots.isEmpty ? 4 : 64 - shift + 1)
    }

    /// Moves every object into a table of `1 << slotBits` slots. Names are unique already, so
    /// each object goes to the first empty slot from its home without comparing names.
    private mutating func rehash(slotBits: Int) {
        let old = slots
        shift = 64 - slotBits
        slots = Array(repeating: nil, count: 1 << slotBits)
        let mask = slots.count - 1
        for case let object? in old {
            var slot = home(of: object.registrationName.key)
            while slots[slot] != nil { slot = (slot + 1) & mask }
            slots[slot] = object
        }
    }
}
