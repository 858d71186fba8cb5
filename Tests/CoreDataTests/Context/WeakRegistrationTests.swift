import CoreData
import Foundation
import Testing

/// A context holds unchanged objects weakly, as Apple's does by default
/// (`retainsRegisteredObjects` false): objects nobody references leave `registeredObjects`,
/// so a long-running process that fetches and saves stays bounded.
@Suite struct WeakRegistrationTests {
    let directory = TemporaryDirectory()

    /// Inserts `count` entries titled "Entry n" (and no reference to them survives) and saves.
    func insertEntries(_ count: Int, into context: NSManagedObjectContext) throws {
        try context.performAndWait {
            for number in 0..<count { LedgerEntry(context: context).title = "Entry \(number)" }
            try context.save()
        }
    }

    @Test func savedObjectsNobodyHoldsLeaveRegisteredObjects() throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        try insertEntries(100, into: context)
        let kept = try context.performAndWait {
            let kept = LedgerEntry(context: context)
            kept.title = "Kept"
            try context.save()
            return kept
        }
        context.performAndWait {
            #expect(context.registeredObjects.count == 1)
            #expect(context.registeredObject(for: kept.objectID) === kept)
        }
        // They are gone from memory, not from the store.
        let count = try context.performAndWait { try context.count(for: NSFetchRequest<LedgerEntry>(entityName: "LedgerEntry")) }
        #expect(count == 101)
    }

    @Test func retainsRegisteredObjectsKeepsEveryObject() throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        context.retainsRegisteredObjects = true
        try insertEntries(100, into: context)
        context.performAndWait { #expect(context.registeredObjects.count == 100) }
    }

    @Test func unsavedChangesStayUntilSavedAndFetchedObjectsNobodyHoldsGo() throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        try insertEntries(3_000, into: context)
        let editedID = try context.performAndWait {
            let entries = try context.fetch(NSFetchRequest<LedgerEntry>(entityName: "LedgerEntry"))
            #expect(context.registeredObjects.count == 3_000)
            entries[0].title = "Edited"
            return entries[0].objectID
        }
        try context.performAndWait {
            // A later fetch, once the table has grown, lets go of what nobody holds.
            let none = NSFetchRequest<LedgerEntry>(entityName: "LedgerEntry")
            none.predicate = NSPredicate(format: "title == %@", "nothing")
            let found = try context.fetch(none)
            #expect(found.isEmpty)
            let registered = context.registeredObjects
            #expect(registered.count == 1)
            #expect(registered.first?.objectID == editedID && registered.first?.hasChanges == true)
            #expect((context.registeredObject(for: editedID) as? LedgerEntry)?.title == "Edited")
        }
        try context.performAndWait { try context.save() }
        context.performAndWait {
            #expect(context.registeredObjects.isEmpty)
            // Asked for again, the object is read from the store.
            #expect((context.object(with: editedID) as? LedgerEntry)?.title == "Edited")
        }
    }

    /// Objects fetched and saved in batches of 1,000, in a process of its own (so the resident
    /// set is the loop's alone): the context's registered objects stay bounded and so does
    /// memory, where a context that retains its objects grows with every batch.
    ///
    /// The coordinator's row cache keeps the last 100,000 rows saved or read (a bound of its
    /// own), so memory is measured over the 50 batches after the first 100,000 objects, against
    /// the growth a batch costs when every object is retained, times 50.
    @Test func fetchingAndSavingInBatchesKeepsMemoryBounded() throws {
        func run(retaining: Bool, objects: Int) throws -> [(registered: Int, resident: Int)] {
            let name = retaining ? "retaining" : "weak"
            let report = directory.file("\(name).report")
            let process = try StressProcess(["fetch-save-memory", "--store", directory.file("\(name).sqlite").path,
                                             "--objects", String(objects), "--batch-size", "1000", "--report", report.path,
                                             "--retain", retaining ? "1" : "0"],
                                            errorLog: directory.file("\(name).log"))
            if let failure = process.waitForSuccess() { throw StressFailure(failure) }
            return try String(contentsOf: report, encoding: .utf8).split(separator: "\n").map { line in
                let fields = line.split(separator: " ").compactMap { Int($0) }
                return (fields[1], fields[2])
            }
        }
        let weak = try run(retaining: false, objects: 150_000)
        let retaining = try run(retaining: true, objects: 30_000)
        try #require(weak.count == 150 && retaining.count == 30)

        #expect(weak.allSatisfy { $0.registered <= 1_000 }, "registered objects: \(weak.map(\.registered).max() ?? 0) at most")
        #expect(retaining.last?.registered == 30_000, "the control keeps every object")
        let retainedPerBatch = (retaining[29].resident - retaining[1].resident) / 28
        #expect(retainedPerBatch > 0)
        let weakGrowth = weak[149].resident - weak[99].resident
        #expect(weakGrowth < retainedPerBatch * 50 / 4,
                "resident growth over batches 100 to 150: \(weakGrowth) bytes; retaining every object costs \(retainedPerBatch) a batch")
    }
}

private struct StressFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
