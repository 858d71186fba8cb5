import CoreData
import Foundation

/// A store of `rows` venues named "Venue 000", "Venue 001"... whose tips equal their number,
/// inserted in one batch.
func venueContainer(rows: Int, in directory: TemporaryDirectory, type: String = NSSQLiteStoreType) throws -> NSPersistentContainer {
    let container = try makeContainer(model: BatchRequestTests.venueModel(), storeURL: directory.file("Venues.sqlite"), type: type)
    let insert = NSBatchInsertRequest(entityName: "Venue", objects: (0..<rows).map { ["name": String(format: "Venue %03d", $0), "tips": $0] })
    _ = try container.newBackgroundContext().execute(insert)
    return container
}

/// A store of venues whose tips are `tips`, named "Venue 000", "Venue 001"... by position,
/// inserted in one batch.
func venueContainer(tips: [Int], in directory: TemporaryDirectory, type: String = NSSQLiteStoreType) throws -> NSPersistentContainer {
    let container = try makeContainer(model: BatchRequestTests.venueModel(), storeURL: directory.file("Venues.sqlite"), type: type)
    let rows = tips.enumerated().map { index, tips in ["name": String(format: "Venue %03d", index), "tips": tips] as [String: Any] }
    _ = try container.newBackgroundContext().execute(NSBatchInsertRequest(entityName: "Venue", objects: rows))
    return container
}

/// Every venue, most tips first, fetched in batches of `batchSize` (0 for none).
func venuesByTipsDescending(batchSize: Int) -> NSFetchRequest<NSManagedObject> {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Venue")
    request.sortDescriptors = [NSSortDescriptor(key: "tips", ascending: false)]
    request.fetchBatchSize = batchSize
    return request
}

/// Inserts an unsaved venue named "Venue new" with `tips` into `context`; call on its queue.
func insertVenue(tips: Int, into context: NSManagedObjectContext) {
    let venue = NSEntityDescription.insertNewObject(forEntityName: "Venue", into: context)
    venue.setValue("Venue new", forKey: "name")
    venue.setValue(tips, forKey: "tips")
}
