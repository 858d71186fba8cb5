/// Holding unchanged objects weakly, as Apple's contexts do unless `retainsRegisteredObjects` is
/// set: an object nobody else references leaves `registeredObjects` and is freed, so a
/// long-running process that fetches and saves keeps memory proportional to what it holds.
///
/// The table itself holds objects strongly (a weak reference costs every object a side
/// allocation and every look-up an atomic load); instead it lets go, at points where no
/// framework code holds an object only through it, of each object whose one reference is the
/// table's: saved objects when the outermost `perform`/`performAndWait` block ends (where an
/// autorelease pool drains on Apple platforms), others at a fetch once the table has grown. Changed objects are held by the change-tracking sets as well, so they stay until saved.
extension NSManagedObjectContext {
    /// The fewest registered objects at which a fetch first looks for objects to let go.
    static let minimumReleaseThreshold = 1_024

    /// Lets go of the objects saved since the outermost block began that nobody references,
    /// O(saved objects): when that block ends, or before the next save or fetch (a main-queue
    /// context used on the main thread has no outermost block).
    func releasePendingSavedObjects() {
        guard !pendingSavedObjects.isEmpty else { return }
        let ids = pendingSavedObjects
        pendingSavedObjects = []
        guard !retainsRegisteredObjects else { return }
        var unregistered: [NSManagedObjectID] = []
        _ = registered.releaseUnreferenced(ids, where: isReleasable) { noteRelease(of: $0, into: &unregistered) }
        reportUnregistered(unregistered)
    }

    /// Before a fetch registers more objects: lets go of earlier saves' objects, and once the
    /// table has doubled since the last pass, of every unchanged object nobody references.
    /// Amortised O(1) a registration.
    func releaseUnreferencedObjects() {
        releasePendingSavedObjects()
        guard !retainsRegisteredObjects, registered.count >= releaseThreshold else { return }
        var unregistered: [NSManagedObjectID] = []
        _ = registered.releaseUnreferenced(where: isReleasable) { noteRelease(of: $0, into: &unregistered) }
        reportUnregistered(unregistered)
        releaseThreshold = max(Self.minimumReleaseThreshold, 2 * registered.count)
    }

    /// Only unchanged objects go; a changed one is also in the change sets, so this is a
    /// second line of defence, not the rule.
    private func isReleasable(_ object: NSManagedObject) -> Bool {
        !object.insertedFlag && !object.deletedFlag && object.changedKeys.isEmpty
    }

    /// Drops what the context kept for an object it lets go of: the row read ahead for a fault,
    /// and the store's count of registrations (collected into `unregistered`).
    private func noteRelease(of object: NSManagedObject, into unregistered: inout [NSManagedObjectID]) {
        if object.faultFlag { object.takeReadAheadRow(in: self) }
        if object.registrationName.store?.observesRegistrations == true { unregistered.append(object.objectID) }
    }
}
