import CoreData
import Foundation
import Testing

/// What the SQL table stores' shared read path promises whatever the session.
@Suite struct SQLTableStoreTests {
    let directory = TemporaryDirectory()

    @Test(.sqliteOnly("edits the store file with the sqlite3 shell"))
    func aRowNamingAnEntityTheModelLacksIsRefusedWithAnError() throws {
        let url = directory.file("People.sqlite")
        let model = PeopleModel.make()
        let writer = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        let uri = try writer.performAndWait {
            let ada = writer.insertPerson("Ada")
            try writer.save()
            return ada.objectID.uriRepresentation()
        }
        _ = try SQLiteShell.lines(url, "UPDATE ZPERSON SET Z_ENT = 99")
        let reader = try makeContainer(model: model, storeURL: url)
        let id = try #require(reader.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri))
        let context = reader.newBackgroundContext()
        let error = context.performAndWait {
            #expect(throws: NSError.self) { try context.existingObject(with: id) }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.localizedDescription.contains("entity number 99") == true)
    }
}
