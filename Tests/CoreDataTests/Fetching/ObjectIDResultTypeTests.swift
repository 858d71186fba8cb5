import CoreData
import Foundation
import Testing

/// `.managedObjectIDResultType`: the IDs of exactly the objects the same request fetches, in
/// the same order, unsaved inserts (with their temporary IDs) and deletes included.
@Suite struct ObjectIDResultTypeTests {
    let directory = TemporaryDirectory()

    /// Venues with at least 50 tips, most first, as `T`.
    func request<T>(_ resultType: NSFetchRequestResultType, of _: T.Type) -> NSFetchRequest<T> {
        let request = NSFetchRequest<T>(entityName: "Venue")
        request.predicate = NSPredicate(format: "tips >= 50")
        request.sortDescriptors = [NSSortDescriptor(key: "tips", ascending: false)]
        request.resultType = resultType
        return request
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func idsAreTheFetchedObjectsIDsInOrder(storeType: String) throws {
        let context = try venueContainer(tips: FetchOffsetTests.storedTips, in: directory, type: storeType).newBackgroundContext()
        try context.performAndWait {
            let objects = try context.fetch(request(.managedObjectResultType, of: NSManagedObject.self))
            let ids = try context.fetch(request(.managedObjectIDResultType, of: NSManagedObjectID.self))
            #expect(objects.count == 35)
            #expect(ids == objects.map(\.objectID))
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func idsFoldInAnUnsavedInsertAndDeleteAsTheObjectFetchDoes(storeType: String) throws {
        let context = try venueContainer(tips: FetchOffsetTests.storedTips, in: directory, type: storeType).newBackgroundContext()
        try context.performAndWait {
            let stored = try context.fetch(request(.managedObjectResultType, of: NSManagedObject.self))
            let doomed = try #require(stored.first { $0.value(forKey: "tips") as? Int == 350 })
            context.delete(doomed)
            insertVenue(tips: 255, into: context)
            let inserted = try #require(context.insertedObjects.first)
            #expect(inserted.objectID.isTemporaryID)

            let objects = try context.fetch(request(.managedObjectResultType, of: NSManagedObject.self))
            let ids = try context.fetch(request(.managedObjectIDResultType, of: NSManagedObjectID.self))
            #expect(ids == objects.map(\.objectID))
            #expect(ids.count == 35)
            #expect(ids.contains(inserted.objectID))
            #expect(!ids.contains(doomed.objectID))
            #expect(objects.map { $0.value(forKey: "tips") as? Int }
                    == (FetchOffsetTests.storedTips.filter { $0 >= 50 && $0 != 350 } + [255]).sorted(by: >))

            let paged = request(.managedObjectIDResultType, of: NSManagedObjectID.self)
            paged.fetchOffset = 10
            paged.fetchLimit = 7
            #expect(try context.fetch(paged) == Array(objects.map(\.objectID)[10..<17]))
        }
    }
}
