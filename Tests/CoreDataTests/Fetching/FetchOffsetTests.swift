import CoreData
import Foundation
import Testing

/// `fetchOffset` with `fetchLimit` on object fetches: the page is the one a full sorted fetch,
/// sliced by hand, would give, whether the store pages in SQL or the context re-pages after
/// folding in unsaved changes.
@Suite struct FetchOffsetTests {
    let directory = TemporaryDirectory()
    /// Tips 0, 10, ... 390: gaps leave room for an insert to sort between two stored rows.
    static let storedTips = (0..<40).map { $0 * 10 }

    /// Venues with at least 50 tips, most first, from `offset`, at most `limit` of them.
    static func page(offset: Int, limit: Int) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Venue")
        request.predicate = NSPredicate(format: "tips >= 50")
        request.sortDescriptors = [NSSortDescriptor(key: "tips", ascending: false)]
        request.fetchOffset = offset
        request.fetchLimit = limit
        return request
    }

    /// The same page cut by hand from `tips`, the values the context holds.
    static func expectedPage(of tips: [Int], offset: Int, limit: Int) -> [Int] {
        Array(tips.filter { $0 >= 50 }.sorted(by: >).dropFirst(offset).prefix(limit))
    }

    /// The tips of a fetch, and of the full fetch (no offset, no limit) sliced by hand.
    func fetchedAndSliced(_ request: NSFetchRequest<NSManagedObject>, in context: NSManagedObjectContext) throws -> (fetched: [Int?], sliced: [Int?]) {
        let full = Self.page(offset: 0, limit: 0)
        let fetched = try context.fetch(request).map { $0.value(forKey: "tips") as? Int }
        let all = try context.fetch(full).map { $0.value(forKey: "tips") as? Int }
        return (fetched, Array(all.dropFirst(request.fetchOffset).prefix(request.fetchLimit)))
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func offsetAndLimitGiveTheSlicedPageOfTheSortedFilteredRows(storeType: String) throws {
        let context = try venueContainer(tips: Self.storedTips, in: directory, type: storeType).newBackgroundContext()
        try context.performAndWait {
            for (offset, limit) in [(0, 7), (10, 7), (33, 7), (35, 7), (50, 3)] {
                let page = try fetchedAndSliced(Self.page(offset: offset, limit: limit), in: context)
                let expected = Self.expectedPage(of: Self.storedTips, offset: offset, limit: limit)
                #expect(page.fetched == expected, "offset \(offset), limit \(limit)")
                #expect(page.fetched == page.sliced, "offset \(offset), limit \(limit)")
            }
            #expect(try context.fetch(Self.page(offset: 10, limit: 7)).map { $0.value(forKey: "tips") as? Int }
                    == [290, 280, 270, 260, 250, 240, 230])
            #expect(try context.fetch(Self.page(offset: 33, limit: 7)).map { $0.value(forKey: "tips") as? Int } == [60, 50],
                    "the last page is short")
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func anUnsavedInsertSortingIntoTheWindowShiftsThePage(storeType: String) throws {
        let context = try venueContainer(tips: Self.storedTips, in: directory, type: storeType).newBackgroundContext()
        try context.performAndWait {
            insertVenue(tips: 255, into: context)
            let tips = Self.storedTips + [255]
            let page = try fetchedAndSliced(Self.page(offset: 10, limit: 7), in: context)
            #expect(page.fetched == Self.expectedPage(of: tips, offset: 10, limit: 7))
            #expect(page.fetched == [290, 280, 270, 260, 255, 250, 240])
            #expect(page.fetched == page.sliced)
            let inserted = try #require(context.insertedObjects.first)
            #expect(try context.fetch(Self.page(offset: 10, limit: 7)).contains { $0 === inserted }, "the page holds the unsaved object itself")
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func unsavedChangesBeforeTheWindowShiftItAndOnesFilteredOutDoNot(storeType: String) throws {
        let context = try venueContainer(tips: Self.storedTips, in: directory, type: storeType).newBackgroundContext()
        try context.performAndWait {
            insertVenue(tips: 255, into: context)
            insertVenue(tips: 20, into: context)
            let all = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Venue"))
            let doomed = try #require(all.first { $0.value(forKey: "tips") as? Int == 350 })
            context.delete(doomed)
            let tips = Self.storedTips.filter { $0 != 350 } + [255, 20]
            for (offset, limit) in [(0, 5), (10, 7), (30, 7), (30, 100), (50, 3)] {
                let page = try fetchedAndSliced(Self.page(offset: offset, limit: limit), in: context)
                #expect(page.fetched == Self.expectedPage(of: tips, offset: offset, limit: limit), "offset \(offset), limit \(limit)")
                #expect(page.fetched == page.sliced, "offset \(offset), limit \(limit)")
                #expect(try context.count(for: Self.page(offset: offset, limit: limit)) == page.fetched.count,
                        "count(for:) counts the same page without reading rows; offset \(offset), limit \(limit)")
            }
            #expect(try context.fetch(Self.page(offset: 10, limit: 7)).map { $0.value(forKey: "tips") as? Int }
                    == [280, 270, 260, 255, 250, 240, 230])
        }
    }
}
