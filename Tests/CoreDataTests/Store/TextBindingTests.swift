import CoreData
import Foundation
import Testing

/// Strings as the SQLite store binds them: an empty string is stored as '', not NULL, and a
/// string is stored whole whatever its length and characters.
@Suite struct TextBindingTests {
    let directory = TemporaryDirectory()

    @Test func anEmptyStringIsStoredAsEmptyNotNull() throws {
        let url = directory.file("People.sqlite")
        let writer = try makeContainer(model: PeopleModel.make(), storeURL: url).newBackgroundContext()
        try writer.performAndWait {
            writer.insertPerson("Ada", nickname: "")
            writer.insertPerson("Alan")
            try writer.save()
        }
        let reader = try makeContainer(model: PeopleModel.make(), storeURL: url).newBackgroundContext()
        let (nicknames, emptyCount, nilCount) = try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let nicknames = try reader.fetch(request).map { $0.value(forKey: "nickname") as? String }
            let empty = NSFetchRequest<NSManagedObject>(entityName: "Person")
            empty.predicate = NSPredicate(format: "nickname == ''")
            let none = NSFetchRequest<NSManagedObject>(entityName: "Person")
            none.predicate = NSPredicate(format: "nickname == nil")
            return (nicknames, try reader.count(for: empty), try reader.count(for: none))
        }
        #expect(nicknames == ["", nil])
        #expect(emptyCount == 1)
        #expect(nilCount == 1)
    }

    @Test func longAndNonASCIIStringsAreStoredWhole() throws {
        let url = directory.file("People.sqlite")
        let long = String(repeating: "Grüße, 世界! ", count: 500)
        let writer = try makeContainer(model: PeopleModel.make(), storeURL: url).newBackgroundContext()
        try writer.performAndWait {
            writer.insertPerson(long, nickname: "é")
            try writer.save()
        }
        let reader = try makeContainer(model: PeopleModel.make(), storeURL: url).newBackgroundContext()
        let stored = try reader.performAndWait {
            try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).map {
                [$0.value(forKey: "name") as? String, $0.value(forKey: "nickname") as? String]
            }
        }
        #expect(stored == [[long, "é"]])
    }
}
