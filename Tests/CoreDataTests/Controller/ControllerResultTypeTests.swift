import CoreData
import Foundation
import Testing

/// A controller needs managed objects: a request for dictionaries or IDs is refused with a
/// clear error at `performFetch()`, where Apple raises.
@Suite struct ControllerResultTypeTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [NSFetchRequestResultType.dictionaryResultType, .managedObjectIDResultType])
    func aRequestForOtherResultsIsRefused(_ resultType: NSFetchRequestResultType) throws {
        let context = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite")).viewContext
        context.insertPerson("Ada")
        try context.save()
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Person")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.resultType = resultType
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        let error = try #require(throws: (any Error).self) { try controller.performFetch() } as NSError
        #expect(error.localizedDescription.contains("resultType must be .managedObjectResultType"))
        #expect(controller.fetchedObjects == nil)
    }
}
