import CoreData
import Foundation
import Testing

/// The coordinator's row cache, observed through a second coordinator on the same file that
/// changes rows behind the first one's back: a value only the cache could have supplied shows
/// that no SQL ran.
@MainActor @Suite struct RowCacheTests {
    let directory = TemporaryDirectory()
    let model = NSManagedObjectModel(entities: [
        NSEntityDescription(name: "Note", properties: [NSAttributeDescription(name: "text", type: .stringAttributeType)]),
    ])

    /// A coordinator with one note saved as "first", and that note's ID.
    func savedNote() throws -> (NSPersistentContainer, NSManagedObjectID) {
        let container = try makeContainer("Notes", model: model, storeURL: directory.file("notes.sqlite"))
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: container.viewContext)
        note.setValue("first", forKey: "text")
        try container.viewContext.save()
        return (container, note.objectID)
    }

    /// Changes the note's text through a coordinator of its own, as another process would.
    func changeBehindTheCache(_ id: NSManagedObjectID, to text: String) throws {
        let other = try makeContainer("Notes", model: model, storeURL: directory.file("notes.sqlite"))
        let note = try #require(try other.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first)
        #expect(note.objectID.uriRepresentation() == id.uriRepresentation())
        note.setValue(text, forKey: "text")
        try other.viewContext.save()
    }

    func text(of id: NSManagedObjectID, in context: NSManagedObjectContext) -> String? {
        context.object(with: id).value(forKey: "text") as? String
    }

    @Test func aFaultWhoseRowAnotherContextReadFiresWithoutSQL() throws {
        let (container, id) = try savedNote()
        let reader = container.newBackgroundContext()
        #expect(reader.performAndWait { text(of: id, in: reader) } == "first")
        try changeBehindTheCache(id, to: "changed elsewhere")

        let later = container.newBackgroundContext()
        #expect(later.performAndWait { text(of: id, in: later) } == "first")
        // A staleness interval of zero refuses cached rows.
        let strict = container.newBackgroundContext()
        strict.stalenessInterval = 0
        #expect(strict.performAndWait { text(of: id, in: strict) } == "changed elsewhere")
    }

    @Test func aSaveLeavesItsRowsInTheCache() throws {
        let (container, id) = try savedNote()
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            writer.object(with: id).setValue("saved here", forKey: "text")
            try writer.save()
        }
        try changeBehindTheCache(id, to: "changed elsewhere")
        let reader = container.newBackgroundContext()
        #expect(reader.performAndWait { text(of: id, in: reader) } == "saved here")
    }

    @Test func refreshingAnObjectReadsTheStoreAgain() throws {
        let (container, id) = try savedNote()
        let context = container.newBackgroundContext()
        #expect(context.performAndWait { text(of: id, in: context) } == "first")
        try changeBehindTheCache(id, to: "changed elsewhere")
        context.performAndWait { context.refresh(context.object(with: id), mergeChanges: false) }
        #expect(context.performAndWait { text(of: id, in: context) } == "changed elsewhere")
        // The fresh row replaced the cached one for every context.
        let other = container.newBackgroundContext()
        #expect(other.performAndWait { text(of: id, in: other) } == "changed elsewhere")
    }

    @Test func aRemoteChangeMergedByIDIsReadAgain() throws {
        let (container, id) = try savedNote()
        let context = container.newBackgroundContext()
        #expect(context.performAndWait { text(of: id, in: context) } == "first")
        try changeBehindTheCache(id, to: "changed elsewhere")
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectIDsKey: [id]], into: [context])
        #expect(context.performAndWait { text(of: id, in: context) } == "changed elsewhere")
    }

    @Test func aBatchUpdateEmptiesTheCache() throws {
        let (container, id) = try savedNote()
        let context = container.newBackgroundContext()
        #expect(context.performAndWait { text(of: id, in: context) } == "first")
        let update = NSBatchUpdateRequest(entityName: "Note")
        update.propertiesToUpdate = ["text": "batched"]
        _ = try context.performAndWait { try context.execute(update) }
        let later = container.newBackgroundContext()
        #expect(later.performAndWait { text(of: id, in: later) } == "batched")
    }
}
