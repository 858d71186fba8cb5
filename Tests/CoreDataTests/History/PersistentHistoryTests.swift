@testable import CoreData
import Foundation
import Testing

/// Persistent history on SQLite files: what saves and batch requests record, the history
/// requests, tokens, and merging a transaction into another coordinator's context.
@MainActor @Suite struct PersistentHistoryTests {
    let directory = TemporaryDirectory()
    var storeURL: URL { directory.file("History.sqlite") }

    /// People whose `name` survives deletion in history.
    static func peopleModel() -> NSManagedObjectModel {
        let name = NSAttributeDescription(name: "name", type: .stringAttributeType)
        name.preservesValueInHistoryOnDeletion = true
        return NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Person", properties: [
                name,
                NSAttributeDescription(name: "age", type: .integer64AttributeType, defaultValue: 0),
                NSAttributeDescription(name: "city", type: .stringAttributeType),
            ]),
        ])
    }

    func container(model: NSManagedObjectModel = peopleModel(), tracking: Bool = true, remoteChanges: Bool = false) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "History", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: storeURL)
        description.setOption(tracking as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        description.setOption(remoteChanges as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    @discardableResult
    func insertPerson(_ name: String, age: Int64 = 30, in context: NSManagedObjectContext) -> NSManagedObject {
        let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
        person.setValue(name, forKey: "name")
        person.setValue(age, forKey: "age")
        return person
    }

    func history(_ request: NSPersistentHistoryChangeRequest, in context: NSManagedObjectContext) throws -> [NSPersistentHistoryTransaction] {
        let result = try #require(try context.execute(request) as? NSPersistentHistoryResult)
        return try #require(result.result as? [NSPersistentHistoryTransaction])
    }

    func allHistory(in context: NSManagedObjectContext) throws -> [NSPersistentHistoryTransaction] {
        try history(.fetchHistory(after: nil as NSPersistentHistoryToken?), in: context)
    }

    // MARK: Recording

    @Test func aSaveRecordsOneTransactionWithItsAuthorAndContextName() throws {
        let container = try container()
        let context = container.viewContext
        context.transactionAuthor = "importer"
        context.name = "main"
        let before = Date()
        insertPerson("Ann", in: context)
        insertPerson("Bob", in: context)
        try context.save()
        let transactions = try allHistory(in: context)
        #expect(transactions.count == 1)
        let transaction = try #require(transactions.first)
        #expect(transaction.author == "importer")
        #expect(transaction.contextName == "main")
        #expect(transaction.storeID == container.persistentStoreCoordinator.persistentStores[0].identifier)
        #expect(transaction.bundleID == (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName))
        #expect(transaction.processID == String(ProcessInfo.processInfo.processIdentifier))
        #expect(transaction.timestamp >= before.addingTimeInterval(-1) && transaction.timestamp <= Date().addingTimeInterval(1))
        #expect(transaction.changes?.count == 2)
        #expect(transaction.changes?.allSatisfy { $0.changeType == .insert && $0.transaction === transaction } == true)
        #expect(transaction.token == NSPersistentHistoryToken(storeTokens: [transaction.storeID: transaction.transactionNumber]))
    }

    @Test func aLargeSaveRecordsEveryChange() throws {
        // More changes than one INSERT into ACHANGE takes (64), and a count that is no power
        // of two, so the rows go in chunks of several sizes.
        let context = try container().viewContext
        let people = (0..<203).map { insertPerson("P\($0)", age: Int64($0), in: context) }
        try context.save()
        for person in people[100..<171] { person.setValue("Q", forKey: "city") }
        try context.save()
        let transactions = try allHistory(in: context)
        #expect(transactions.count == 2)
        let inserts = try #require(transactions.first?.changes)
        #expect(inserts.count == 203)
        #expect(Set(inserts.map(\.changedObjectID)) == Set(people.map(\.objectID)))
        #expect(Set(inserts.map(\.changeID)).count == 203)
        #expect(inserts.allSatisfy { $0.changeType == .insert })
        let updates = try #require(transactions.last?.changes)
        #expect(updates.count == 71)
        #expect(Set(updates.map(\.changedObjectID)) == Set(people[100..<171].map(\.objectID)))
        #expect(updates.allSatisfy { $0.changeType == .update && $0.updatedProperties?.map(\.name) == ["city"] })
    }

    @Test func insertsUpdatesAndDeletesAreRecordedWithTheUpdatedProperties() throws {
        let context = try container().viewContext
        let ann = insertPerson("Ann", in: context)
        let bob = insertPerson("Bob", in: context)
        try context.save()
        ann.setValue(31 as Int64, forKey: "age")
        ann.setValue("Oslo", forKey: "city")
        context.delete(bob)
        try context.save()
        let transactions = try allHistory(in: context)
        #expect(transactions.count == 2)
        let changes = try #require(transactions.last?.changes)
        let update = try #require(changes.first { $0.changeType == .update })
        #expect(update.changedObjectID == ann.objectID)
        #expect(Set(update.updatedProperties?.map(\.name) ?? []) == ["age", "city"])
        #expect(update.tombstone == nil)
        let delete = try #require(changes.first { $0.changeType == .delete })
        #expect(delete.changedObjectID == bob.objectID)
        #expect(delete.updatedProperties == nil)
        let inserted = Set(transactions[0].changes?.map(\.changedObjectID) ?? [])
        #expect(inserted == [ann.objectID, bob.objectID])
    }

    @Test func aDeleteKeepsThePreservedValuesInItsTombstone() throws {
        let context = try container().viewContext
        let ann = insertPerson("Ann", age: 40, in: context)
        try context.save()
        context.delete(ann)
        try context.save()
        let delete = try #require(try allHistory(in: context).last?.changes?.first)
        #expect(delete.changeType == .delete)
        #expect(delete.tombstone?["name"] as? String == "Ann")
        #expect(delete.tombstone?["age"] == nil, "age is not preserved")
    }

    @Test func theModelReaderReadsPreserveAfterDeletion() throws {
        let url = try ModelFiles.contentsFile(ModelFiles.modelXML("""
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String" preserveAfterDeletion="YES"/>
                <attribute name="age" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            </entity>
            """))
        let model = try NSManagedObjectModel.load(contentsOf: url)
        let person = try #require(model.entitiesByName["Person"])
        #expect(person.attributesByName["name"]?.preservesValueInHistoryOnDeletion == true)
        #expect(person.attributesByName["age"]?.preservesValueInHistoryOnDeletion == false)
    }

    @Test func eachBatchRequestRecordsOneTransaction() throws {
        let context = try container().viewContext
        context.transactionAuthor = "batch"
        let insert = NSBatchInsertRequest(entityName: "Person", objects: [["name": "Ann", "age": 1], ["name": "Bob", "age": 2], ["name": "Cy", "age": 3]])
        _ = try context.execute(insert)
        let update = NSBatchUpdateRequest(entityName: "Person")
        update.predicate = NSPredicate(format: "age >= 2")
        update.propertiesToUpdate = ["city": "Rome"]
        _ = try context.execute(update)
        let delete = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Person"))
        _ = try context.execute(delete)
        let transactions = try allHistory(in: context)
        #expect(transactions.count == 3)
        #expect(transactions.allSatisfy { $0.author == "batch" })
        #expect(transactions[0].changes?.map(\.changeType) == [.insert, .insert, .insert])
        #expect(transactions[1].changes?.map(\.changeType) == [.update, .update])
        #expect(transactions[1].changes?.allSatisfy { $0.updatedProperties?.map(\.name) == ["city"] } == true)
        #expect(transactions[2].changes?.map(\.changeType) == [.delete, .delete, .delete])
        #expect(Set(transactions[2].changes?.compactMap { $0.tombstone?["name"] as? String } ?? []) == ["Ann", "Bob", "Cy"])
    }

    @Test func aFailedSaveRecordsNothing() throws {
        let model = Self.peopleModel()
        model.entitiesByName["Person"]!.attributesByName["city"]!.isOptional = false
        let context = try container(model: model).viewContext
        insertPerson("Ann", in: context)
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try allHistory(in: context).isEmpty)
    }

    // MARK: Fetching and deleting

    @Test func historyIsFetchedAfterATokenADateOrATransaction() throws {
        let context = try container().viewContext
        insertPerson("Ann", in: context)
        try context.save()
        let first = try #require(try allHistory(in: context).first)
        Thread.sleep(forTimeInterval: 0.01)
        let middle = Date()
        insertPerson("Bob", in: context)
        try context.save()
        insertPerson("Cy", in: context)
        try context.save()
        #expect(try history(.fetchHistory(after: first.token), in: context).count == 2)
        #expect(try history(.fetchHistory(after: first), in: context).count == 2)
        #expect(try history(.fetchHistory(after: middle), in: context).count == 2)
        #expect(try history(.fetchHistory(after: nil as NSPersistentHistoryTransaction?), in: context).count == 3)
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: first.token)
        #expect(request.token == first.token)
    }

    @Test func aFetchRequestFiltersTransactionsByAuthorOrChangesByType() throws {
        let context = try container().viewContext
        context.transactionAuthor = "app"
        let ann = insertPerson("Ann", in: context)
        try context.save()
        context.transactionAuthor = "sync"
        insertPerson("Bob", in: context)
        try context.save()
        context.delete(ann)
        try context.save()
        let byAuthor = try #require(NSPersistentHistoryTransaction.fetchRequest)
        byAuthor.predicate = NSPredicate(format: "author == %@", "sync")
        let synced = try history(.fetchHistory(withFetch: byAuthor), in: context)
        #expect(synced.count == 2)
        #expect(synced.allSatisfy { $0.author == "sync" })
        let deletes = try #require(NSPersistentHistoryChange.fetchRequest)
        deletes.predicate = NSPredicate(format: "changeType == %d", NSPersistentHistoryChangeType.delete.rawValue)
        let withDeletes = try history(.fetchHistory(withFetch: deletes), in: context)
        #expect(withDeletes.count == 1)
        #expect(withDeletes.first?.changes?.map(\.changedObjectID) == [ann.objectID])
        #expect(NSPersistentHistoryTransaction.entityDescription(with: context)?.attributesByName["author"] != nil)
        #expect(NSPersistentHistoryChange.entityDescription(with: context)?.attributesByName["changeType"] != nil)
    }

    @Test func aTransactionPredicateSelectsTheTransactionsAfterAToken() throws {
        let context = try container().viewContext
        for name in ["Ann", "Bob", "Cy"] {
            insertPerson(name, in: context)
            try context.save()
        }
        let first = try #require(try allHistory(in: context).first)
        let request = try #require(NSPersistentHistoryTransaction.fetchRequest)
        request.predicate = NSPredicate(format: "token > %@", first.token)
        let later = try history(.fetchHistory(withFetch: request), in: context)
        #expect(later.map(\.transactionNumber) == [first.transactionNumber + 1, first.transactionNumber + 2])
        request.predicate = NSPredicate(format: "token == %@", first.token)
        #expect(try history(.fetchHistory(withFetch: request), in: context).map(\.transactionNumber) == [first.transactionNumber])
    }

    @Test func aChangePredicateComparesTheChangedEntityWithAnEntityDescription() throws {
        let model = Self.peopleModel()
        model.entities.append(NSEntityDescription(name: "Pet", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)]))
        let context = try container(model: model).viewContext
        let ann = insertPerson("Ann", in: context)
        NSEntityDescription.insertNewObject(forEntityName: "Pet", into: context).setValue("Rex", forKey: "name")
        try context.save()
        let request = try #require(NSPersistentHistoryChange.fetchRequest)
        request.predicate = NSPredicate(format: "changedEntity == %@", try #require(model.entitiesByName["Person"]))
        let transactions = try history(.fetchHistory(withFetch: request), in: context)
        #expect(transactions.flatMap { $0.changes ?? [] }.map(\.changedObjectID) == [ann.objectID])
    }

    @Test func resultTypesShapeTheResult() throws {
        let context = try container().viewContext
        let ann = insertPerson("Ann", in: context)
        insertPerson("Bob", in: context)
        try context.save()
        ann.setValue(41 as Int64, forKey: "age")
        try context.save()
        func result(_ type: NSPersistentHistoryResultType) throws -> Any? {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
            request.resultType = type
            return try #require(try context.execute(request) as? NSPersistentHistoryResult).result
        }
        #expect(try result(.statusOnly) as? Bool == true)
        #expect(try result(.count) as? Int == 2)
        #expect((try result(.objectIDs) as? [NSManagedObjectID])?.count == 3)
        let changes = try #require(try result(.changesOnly) as? [NSPersistentHistoryChange])
        #expect(changes.map(\.changeType) == [.insert, .insert, .update])
        let transactions = try #require(try result(.transactionsOnly) as? [NSPersistentHistoryTransaction])
        #expect(transactions.count == 2 && transactions.allSatisfy { $0.changes == nil })
    }

    @Test func deletingHistoryBeforeATokenRemovesOlderTransactions() throws {
        let context = try container().viewContext
        for name in ["Ann", "Bob", "Cy"] {
            insertPerson(name, in: context)
            try context.save()
        }
        let transactions = try allHistory(in: context)
        let request = NSPersistentHistoryChangeRequest.deleteHistory(before: transactions[1].token)
        request.resultType = .count
        let deleted = try #require(try context.execute(request) as? NSPersistentHistoryResult)
        #expect(deleted.result as? Int == 1)
        #expect(try allHistory(in: context).map(\.transactionNumber) == [transactions[1].transactionNumber, transactions[2].transactionNumber])
        _ = try context.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: Date().addingTimeInterval(1)))
        #expect(try allHistory(in: context).isEmpty)
        // Numbers keep rising after a purge, so old tokens stay behind new transactions.
        insertPerson("Dee", in: context)
        try context.save()
        let next = try #require(try allHistory(in: context).first)
        #expect(next.transactionNumber > transactions[2].transactionNumber)
        #expect(try history(.fetchHistory(after: transactions[2].token), in: context).count == 1)
    }

    @Test func aTokenOlderThanDeletedHistoryHasExpired() throws {
        let context = try container().viewContext
        for name in ["Ann", "Bob", "Cy", "Dee"] {
            insertPerson(name, in: context)
            try context.save()
        }
        let transactions = try allHistory(in: context)
        _ = try context.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: transactions[2].token))
        // Transaction 2 is gone, so a reader that stopped at 1 would miss it: expired.
        let error = try #require(throws: NSError.self) { try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: transactions[0].token)) }
        #expect(error.code == NSPersistentHistoryTokenExpiredError)
        #expect(error.code == 134301)
        // A reader that stopped at 2 misses nothing, nor does one asking for everything.
        #expect(try history(.fetchHistory(after: transactions[1].token), in: context).map(\.transactionNumber)
                == [transactions[2].transactionNumber, transactions[3].transactionNumber])
        #expect(try allHistory(in: context).count == 2)
        // With every transaction deleted, only the newest token is still current.
        _ = try context.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: Date().addingTimeInterval(1)))
        #expect(throws: NSError.self) { try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: transactions[2].token)) }
        #expect(try history(.fetchHistory(after: transactions[3].token), in: context).isEmpty)
    }

    // MARK: Tokens

    @Test func tokensOrderByTransactionAndSurviveArchiving() throws {
        let context = try container().viewContext
        insertPerson("Ann", in: context)
        try context.save()
        insertPerson("Bob", in: context)
        try context.save()
        let transactions = try allHistory(in: context)
        let (older, newer) = (transactions[0].token, transactions[1].token)
        #expect(older < newer)
        #expect(!(newer < older))
        #expect(older != newer)
        let archived = try NSKeyedArchiver.archivedData(withRootObject: newer, requiringSecureCoding: true)
        let unarchived = try NSKeyedUnarchiver.unarchivedObject(ofClass: NSPersistentHistoryToken.self, from: archived)
        #expect(unarchived == newer)
        let decoded = try JSONDecoder().decode(NSPersistentHistoryToken.self, from: try JSONEncoder().encode(newer))
        #expect(decoded == newer)
        #expect(try history(.fetchHistory(after: decoded), in: context).isEmpty)
    }

    @Test func theCoordinatorReportsTheCurrentToken() throws {
        let container = try container()
        let context = container.viewContext
        let coordinator = container.persistentStoreCoordinator
        let empty = try #require(coordinator.currentPersistentHistoryToken(fromStores: nil))
        insertPerson("Ann", in: context)
        try context.save()
        let current = try #require(coordinator.currentPersistentHistoryToken(fromStores: coordinator.persistentStores))
        #expect(empty < current)
        #expect(current == (try allHistory(in: context).last?.token))
        #expect(try history(.fetchHistory(after: current), in: context).isEmpty)
    }

    // MARK: Merging

    @Test func mergingATransactionUpdatesAControllerOnAnotherCoordinator() throws {
        let model = ControllerModels.worldCup()
        let writer = try container(model: model)
        for (name, zone) in ControllerModels.teams {
            let team = WorldCupTeam(context: writer.viewContext)
            team.teamName = name
            team.qualifyingZone = zone
            team.wins = 0
        }
        try writer.viewContext.save()

        let reader = try container(model: model)
        let controller = NSFetchedResultsController(fetchRequest: worldCupRequest(), managedObjectContext: reader.viewContext,
                                                    sectionNameKeyPath: "qualifyingZone", cacheName: nil)
        try controller.performFetch()
        let recorder = TableRecorder.attached(to: controller)
        var lastToken = reader.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)

        let teams = try writer.viewContext.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team"))
        try #require(teams.first { $0.teamName == "Brazil" }).wins = 5
        writer.viewContext.delete(try #require(teams.first { $0.teamName == "Chile" }))
        let newcomer = WorldCupTeam(context: writer.viewContext)
        newcomer.teamName = "Peru"
        newcomer.qualifyingZone = "South America"
        newcomer.wins = 1
        try writer.viewContext.save()

        for transaction in try history(.fetchHistory(after: lastToken), in: reader.viewContext) {
            reader.viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            lastToken = transaction.token
        }
        #expect(recorder.batches == 1)
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
        let southAmerica = try #require(controller.sections?.first { $0.name == "South America" })
        #expect(southAmerica.objects?.compactMap { ($0 as? WorldCupTeam)?.teamName } == ["Brazil", "Peru", "Argentina", "Colombia", "Ecuador", "Uruguay"])
        #expect(lastToken == writer.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))
    }

    // MARK: Without tracking

    @Test func historyRequestsThrowWithoutTracking() throws {
        let context = try container(tracking: false).viewContext
        insertPerson("Ann", in: context)
        try context.save()
        let error = try #require(throws: NSError.self) { try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast)) }
        #expect(error.code == NSPersistentStoreUnsupportedRequestTypeError)
        #expect(throws: NSError.self) { try context.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: Date())) }
        #expect(context.persistentStoreCoordinator?.currentPersistentHistoryToken(fromStores: nil) == nil)
    }

    @Test func turningTrackingOnLaterCreatesTheTablesAndRecordsFromThen() throws {
        do {
            let context = try container(tracking: false).viewContext
            insertPerson("Ann", in: context)
            try context.save()
        }
        let context = try container().viewContext
        #expect(try allHistory(in: context).isEmpty)
        insertPerson("Bob", in: context)
        try context.save()
        #expect(try allHistory(in: context).count == 1)
    }
}
