import CoreData
import Foundation
import Testing

/// A container subclass as apps write it: its own store folder and a helper.
final class ShelfContainer: NSPersistentContainer, @unchecked Sendable {
    static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("ShelfContainer-\(ProcessInfo.processInfo.processIdentifier)")

    override class func defaultDirectoryURL() -> URL { folder }

    func bookTitles() throws -> [String] {
        let request = NSFetchRequest<ShelfBook>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        return try viewContext.fetch(request).compactMap(\.title)
    }
}

/// `NSPersistentContainer` subclasses inherit `init(name:managedObjectModel:)` and `init(name:)`.
@MainActor @Suite struct ContainerSubclassTests {
    @Test func subclassInheritsDesignatedInitialiserAndPlacesItsStore() throws {
        let container = ShelfContainer(name: "Shelf", managedObjectModel: ShelfModel.make())
        defer { try? FileManager.default.removeItem(at: ShelfContainer.folder) }
        #expect(container.persistentStoreDescriptions.first?.url == ShelfContainer.folder.appendingPathComponent("Shelf.sqlite"))
        try FileManager.default.createDirectory(at: ShelfContainer.folder, withIntermediateDirectories: true)
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let book = ShelfBook(context: container.viewContext)
        book.title = "dune"
        try container.viewContext.save()
        #expect(try container.bookTitles() == ["dune"])
        #expect(FileManager.default.fileExists(atPath: ShelfContainer.folder.appendingPathComponent("Shelf.sqlite").path))
    }

    @Test func subclassInheritsInitWithNameAndFindsTheModel() {
        // This test target ships FeedbackModel (source and compiled) as resources.
        let container = ShelfContainer(name: "FeedbackModel")
        #expect(Set(container.managedObjectModel.entitiesByName.keys) == ["FeedbackCategory", "FeedbackSubCategory"])
        #expect(container.persistentStoreDescriptions.first?.url == ShelfContainer.folder.appendingPathComponent("FeedbackModel.sqlite"))
    }

    @Test func subclassInitWithNameReportsAMissingModel() {
        let container = ShelfContainer(name: "NoSuchModel")
        #expect(container.name == "NoSuchModel")
        #expect(container.persistentStoreDescriptions.first?.url == ShelfContainer.folder.appendingPathComponent("NoSuchModel.sqlite"))
        var loadError: NSError?
        container.loadPersistentStores { _, error in loadError = error as NSError? }
        #expect(loadError?.domain == NSCocoaErrorDomain)
        #expect(loadError?.localizedDescription.contains("NoSuchModel") == true)
    }
}
