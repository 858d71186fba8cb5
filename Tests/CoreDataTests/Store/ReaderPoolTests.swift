import CoreData
import Foundation
import Testing

/// Reads run on the SQLite store's reader connections, beside the writer: contexts reading while
/// another saves see whole saves only, never half of one.
@Suite struct ReaderPoolTests {
    static let accounts = 8
    static let total: Int64 = 8_000

    static func model() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Account", properties: [
                NSAttributeDescription(name: "number", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "balance", type: .integer64AttributeType, optional: false, defaultValue: 0),
            ]),
        ])
    }

    @Test func readersInTwoContextsSeeOnlyWholeSavesWhileAWriterSaves() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: Self.model(), storeURL: directory.file("Accounts.sqlite"))
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for number in 0..<Self.accounts {
                let account = NSEntityDescription.insertNewObject(forEntityName: "Account", into: writer)
                account.setValue(Int64(number), forKey: "number")
                account.setValue(Self.total / Int64(Self.accounts), forKey: "balance")
            }
            try writer.save()
        }
        let stop = Flag()
        let observations = LockedLog()
        let readers = DispatchGroup()
        for name in ["first", "second"] {
            let reader = container.newBackgroundContext()
            reader.name = name
            DispatchQueue.global().async(group: readers) {
                var reads = 0
                while !stop.isSet || reads < 20 {
                    let sum = reader.performAndWait { () -> Int64 in
                        reader.reset()
                        let request = NSFetchRequest<NSManagedObject>(entityName: "Account")
                        request.returnsObjectsAsFaults = false
                        let accounts = (try? reader.fetch(request)) ?? []
                        return accounts.reduce(0) { $0 + (($1.value(forKey: "balance") as? Int64) ?? 0) }
                    }
                    if sum != Self.total { observations.append("\(name) read a sum of \(sum)") }
                    reads += 1
                }
                observations.append("\(name) reads \(reads)")
            }
        }
        // Each save moves money between two accounts: the total holds in every committed state.
        try writer.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Account")
            request.sortDescriptors = [NSSortDescriptor(key: "number", ascending: true)]
            let accounts = try writer.fetch(request)
            for step in 0..<200 {
                let from = accounts[step % Self.accounts], to = accounts[(step * 3 + 1) % Self.accounts]
                guard from !== to else { continue }
                let amount = Int64(step % 17 + 1)
                from.setValue((from.value(forKey: "balance") as! Int64) - amount, forKey: "balance")
                to.setValue((to.value(forKey: "balance") as! Int64) + amount, forKey: "balance")
                try writer.save()
            }
        }
        stop.set()
        #expect(readers.wait(timeout: .now() + 60) == .success, "the readers did not finish")
        let lines = observations.items
        #expect(lines.filter { $0.contains("sum") }.isEmpty, "\(lines.filter { $0.contains("sum") }.prefix(5))")
        #expect(lines.filter { $0.contains("reads") }.count == 2)
    }

    @Test func aReadInsideABatchDeleteSeesTheWritersOwnChanges() throws {
        // A batch delete walks delete rules with reads inside its write transaction: those must
        // use the writer (a reader would not see the rows the transaction already changed).
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("Rules.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<5 { context.insertPerson("Owner \(index)", pets: ["Pet \(index)a", "Pet \(index)b"]) }
            try context.save()
            let delete = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Person"))
            _ = try context.execute(delete)
            let orphans = NSFetchRequest<NSManagedObject>(entityName: "Pet")
            orphans.predicate = NSPredicate(format: "owner != nil")
            #expect(try context.count(for: orphans) == 0, "nullify reached every pet")
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Pet")) == 10)
        }
    }
}

/// A flag set once by one thread and read by others.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
