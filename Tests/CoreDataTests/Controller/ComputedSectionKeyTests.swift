import CoreData
import Foundation
import Testing

/// Sections named by Swift computed properties: Apple's DateSectionTitles (a transient
/// `sectionIdentifier` computed by a getter) and Big Nerd Ranch's `firstInitial`. Every batch
/// of reports, replayed onto the previous sections, must give what a fresh fetch gives.
@MainActor @Suite struct ComputedSectionKeyTests {
    let directory = TemporaryDirectory()
    let container: NSPersistentContainer
    var context: NSManagedObjectContext { container.viewContext }

    init() throws {
        container = try ShelfModel.container(storeURL: directory.file("Shelf.sqlite"))
    }

    func controller(sectionNameKeyPath: String, sortKey: String) throws -> NSFetchedResultsController<ShelfBook> {
        let request = NSFetchRequest<ShelfBook>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: sortKey, ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: sectionNameKeyPath, cacheName: nil)
        try controller.performFetch()
        return controller
    }

    func insert(_ title: String, month: Int, day: Int = 1) {
        let book = ShelfBook(context: context)
        book.title = title
        book.timeStamp = ShelfModel.date(month: month, day: day)
    }

    /// The sections a new controller fetches now.
    func freshTable(sectionNameKeyPath: String, sortKey: String) throws -> TableRecorder.Table {
        TableRecorder.table(of: try controller(sectionNameKeyPath: sectionNameKeyPath, sortKey: sortKey))
    }

    @Test func transientSectionIdentifierComputedByAGetterNamesSections() throws {
        insert("dune", month: 1)
        insert("emma", month: 1, day: 9)
        insert("anna", month: 3)
        try context.save()
        let controller = try controller(sectionNameKeyPath: "sectionIdentifier", sortKey: "timeStamp")
        #expect(controller.sections?.map(\.name) == ["2024001", "2024003"])
        #expect(controller.sections?.map(\.numberOfObjects) == [2, 1])
    }

    @Test func firstInitialComputedPropertyNamesSections() throws {
        for title in ["dune", "dracula", "emma", "anna"] { insert(title, month: 1) }
        try context.save()
        let controller = try controller(sectionNameKeyPath: "firstInitial", sortKey: "title")
        #expect(controller.sections?.map(\.name) == ["A", "D", "E"])
        #expect(controller.sections?.map { $0.objects?.compactMap { ($0 as? ShelfBook)?.title } ?? [] }
                == [["anna"], ["dracula", "dune"], ["emma"]])
    }

    @Test func changesReplayedOntoComputedSectionsEqualAFreshFetch() throws {
        insert("dune", month: 1)
        insert("emma", month: 1, day: 9)
        insert("anna", month: 3)
        insert("dracula", month: 5)
        try context.save()
        for (keyPath, sortKey) in [("sectionIdentifier", "timeStamp"), ("firstInitial", "title")] {
            let controller = try controller(sectionNameKeyPath: keyPath, sortKey: sortKey)
            let recorder = TableRecorder()
            recorder.reset(from: controller)
            controller.delegate = recorder
            let books = try #require(controller.fetchedObjects)
            let steps: [() -> Void] = [
                // Moves a book into a section of its own (a new month, a new initial).
                { books.first { $0.title == "emma" }!.timeStamp = ShelfModel.date(month: 7) },
                { books.first { $0.title == "anna" }!.title = "zola" },
                // Empties a section.
                { self.context.delete(books.first { $0.title == "dracula" }!) },
                { self.insert("beloved", month: 3, day: 2) },
                { books.first { $0.title == "dune" }!.timeStamp = ShelfModel.date(month: 3, day: 5) },
            ]
            for step in steps {
                step()
                try context.save()
                #expect(recorder.replayFailures.isEmpty, "\(keyPath): \(recorder.replayFailures)")
                #expect(recorder.table == (try freshTable(sectionNameKeyPath: keyPath, sortKey: sortKey)), "\(keyPath)")
            }
            #expect(recorder.batches == steps.count)
            // Leave the shelf as it was for the next key path.
            context.rollback()
            for book in try context.fetch(NSFetchRequest<ShelfBook>(entityName: "Book")) { context.delete(book) }
            try context.save()
            insert("dune", month: 1)
            insert("emma", month: 1, day: 9)
            insert("anna", month: 3)
            insert("dracula", month: 5)
            try context.save()
        }
    }
}
