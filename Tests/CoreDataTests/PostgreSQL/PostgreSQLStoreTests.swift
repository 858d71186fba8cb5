#if canImport(CoreDataPostgreSQL)
@testable import CoreData
import CoreDataPostgreSQL
import Testing

extension PostgreSQLSuites {
    /// The PostgreSQL store through the public API, on a real server (PostgreSQLTestServer).
    @Suite struct PostgreSQLStoreTests {
        @Test func savedObjectsComeBackThroughAnotherCoordinator() throws {
            let url = try PostgreSQLTestServer.freshStoreURL()
            let writer = try TeamModel.container(url: url)
            let context = writer.viewContext
            let brazil = TeamModel.insertTeam("Brazil", zone: "South America", wins: 5, into: context)
            brazil.setValue(Date(timeIntervalSinceReferenceDate: 1_000), forKey: "founded")
            TeamModel.insertTeam("Ghana", zone: "Africa", wins: 1, into: context)
            let player = NSEntityDescription.insertNewObject(forEntityName: "Player", into: context)
            player.setValue("Pelé", forKey: "name")
            player.setValue(brazil, forKey: "team")
            try context.save()
            #expect(brazil.objectID.isTemporaryID == false)
            #expect(brazil.objectID.uriRepresentation().absoluteString.hasPrefix("x-coredata://"))

            let reader = try TeamModel.container(url: url)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Team")
            request.sortDescriptors = [NSSortDescriptor(key: "teamName", ascending: true)]
            let teams = try reader.viewContext.fetch(request)
            #expect(teams.map { $0.value(forKey: "teamName") as? String } == ["Brazil", "Ghana"])
            #expect(teams[0].value(forKey: "wins") as? Int64 == 5)
            #expect(teams[0].value(forKey: "founded") as? Date == Date(timeIntervalSinceReferenceDate: 1_000))
            let players = teams[0].value(forKey: "players") as? Set<NSManagedObject>
            #expect(players?.map { $0.value(forKey: "name") as? String } == ["Pelé"])
            #expect(reader.persistentStoreCoordinator.persistentStores.first?.type == NSPostgreSQLStoreType)
        }

        /// `setMetadata(_:for:)` is written with the next save, and the keys the store manages
        /// stay as they were.
        @Test func metadataSetOnTheCoordinatorIsSavedWithTheNextSave() throws {
            let url = try PostgreSQLTestServer.freshStoreURL()
            let writer = try TeamModel.container(url: url)
            let coordinator = writer.persistentStoreCoordinator
            let store = try #require(coordinator.persistentStores.first)
            let uuid = try #require(store.metadata?[NSStoreUUIDKey] as? String)
            var metadata = coordinator.metadata(for: store)
            metadata["lastImport"] = "2026-11-26"
            metadata[NSStoreUUIDKey] = "not the store's"
            coordinator.setMetadata(metadata, for: store)
            TeamModel.insertTeam("Japan", zone: "Asia", wins: 0, into: writer.viewContext)
            try writer.viewContext.save()

            let reopened = try #require(try TeamModel.container(url: url).persistentStoreCoordinator.persistentStores.first)
            #expect(reopened.metadata?["lastImport"] as? String == "2026-11-26")
            #expect(reopened.metadata?[NSStoreUUIDKey] as? String == uuid)
        }

        @Test func predicatesSortsCountsAndPagesRunOnTheServer() throws {
            let container = try TeamModel.container()
            let context = container.viewContext
            for (index, name) in ["Éire", "eire", "Brazil", "brazil", "Chile", "Peru", "Ghana", "Côte d'Ivoire"].enumerated() {
                TeamModel.insertTeam(name, zone: index % 2 == 0 ? "A" : "B", wins: Int64(index), into: context)
            }
            try context.save()
            context.reset()
            func names(_ format: String, _ arguments: [Any] = [], limit: Int = 0, offset: Int = 0) throws -> [String] {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Team")
                request.predicate = NSPredicate(format: format, argumentArray: arguments)
                request.sortDescriptors = [NSSortDescriptor(key: "wins", ascending: false)]
                request.fetchLimit = limit
                request.fetchOffset = offset
                return try context.fetch(request).compactMap { $0.value(forKey: "teamName") as? String }
            }
            #expect(try names("teamName ==[cd] %@", ["EIRE"]) == ["eire", "Éire"])
            #expect(try names("teamName BEGINSWITH[c] %@", ["b"]) == ["brazil", "Brazil"])
            #expect(try names("teamName CONTAINS %@", ["ô"]) == ["Côte d'Ivoire"])
            #expect(try names("teamName LIKE %@", ["?hil*"]) == ["Chile"])
            #expect(try names("teamName MATCHES %@", ["[A-C].*l"]) == ["Brazil"])
            #expect(try names("wins BETWEEN {2, 4} AND qualifyingZone == 'A'") == ["Chile", "Brazil"])
            #expect(try names("wins > 1", limit: 2, offset: 1) == ["Ghana", "Peru"])
            #expect(try names("TRUEPREDICATE", limit: 0, offset: 6) == ["eire", "Éire"])
            let count = NSFetchRequest<NSManagedObject>(entityName: "Team")
            count.predicate = NSPredicate(format: "qualifyingZone == %@", "B")
            #expect(try context.count(for: count) == 4)
            let sorted = NSFetchRequest<NSManagedObject>(entityName: "Team")
            sorted.sortDescriptors = [NSSortDescriptor(key: "teamName", ascending: true)]
            // compare: is UTF-8 byte order, whatever the database's collation.
            #expect(try context.fetch(sorted).compactMap { $0.value(forKey: "teamName") as? String }
                == ["Brazil", "Chile", "Côte d'Ivoire", "Ghana", "Peru", "brazil", "eire", "Éire"])
        }

        @Test func aStaleSaveConflictsAndTheMergePolicyDecides() throws {
            let url = try PostgreSQLTestServer.freshStoreURL()
            let first = try TeamModel.container(url: url)
            TeamModel.insertTeam("Peru", zone: "South America", wins: 0, into: first.viewContext)
            try first.viewContext.save()
            let second = try TeamModel.container(url: url)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Team")
            let theirs = try #require(try second.viewContext.fetch(request).first)
            let ours = try #require(try first.viewContext.fetch(request).first)
            theirs.setValue(Int64(7), forKey: "wins")
            try second.viewContext.save()
            ours.setValue(Int64(3), forKey: "wins")
            #expect(throws: (any Error).self) { try first.viewContext.save() }
            do {
                try first.viewContext.save()
            } catch let error as NSError {
                #expect(error.code == NSManagedObjectMergeError)
            }
            first.viewContext.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            try first.viewContext.save()
            let check = try TeamModel.container(url: url)
            #expect(try check.viewContext.fetch(request).first?.value(forKey: "wins") as? Int64 == 3)
        }

        @Test func aControllerTracksSavesAndBatchRequestsWork() throws {
            let container = try TeamModel.container()
            let context = container.viewContext
            for (index, name) in ["Brazil", "Chile", "Ghana", "Peru"].enumerated() {
                TeamModel.insertTeam(name, zone: index < 2 ? "South America" : "Other", wins: Int64(index), into: context)
            }
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Team")
            request.sortDescriptors = [NSSortDescriptor(key: "qualifyingZone", ascending: true), NSSortDescriptor(key: "wins", ascending: false)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                        sectionNameKeyPath: "qualifyingZone", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["Other", "South America"])
            let brazil = try #require(controller.fetchedObjects?.first { $0.value(forKey: "teamName") as? String == "Brazil" })
            brazil.setValue(Int64(9), forKey: "wins")
            try context.save()
            #expect(controller.sections?[1].objects?.first as? NSManagedObject === brazil)

            let update = NSBatchUpdateRequest(entityName: "Team")
            update.propertiesToUpdate = ["wins": NSExpression(forConstantValue: 1)]
            update.predicate = NSPredicate(format: "qualifyingZone == %@", "Other")
            update.resultType = .updatedObjectsCountResultType
            let updated = try context.execute(update) as? NSBatchUpdateResult
            #expect(updated?.result as? Int == 2)
            let delete = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Team"))
            delete.resultType = .resultTypeCount
            let deleted = try context.execute(delete) as? NSBatchDeleteResult
            #expect(deleted?.result as? Int == 4)
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Team")) == 0)
        }

        @Test func writersOnSeparateCoordinatorsNeverShareAPrimaryKey() throws {
            let url = try PostgreSQLTestServer.freshStoreURL()
            _ = try TeamModel.container(url: url)
            let writers = try (0..<4).map { _ in try TeamModel.container(url: url) }
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: writers.count) { index in
                let context = writers[index].newBackgroundContext()
                context.performAndWait {
                    do {
                        for batch in 0..<5 {
                            for number in 0..<20 { TeamModel.insertTeam("w\(index)-\(batch)-\(number)", zone: "Z", wins: 0, into: context) }
                            try context.save()
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let check = try TeamModel.container(url: url)
            let teams = try check.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team"))
            #expect(teams.count == 400)
            #expect(Set(teams.map(\.objectID)).count == 400)
        }

        @Test func aUniquenessConstraintHoldsBetweenCoordinators() throws {
            let url = try PostgreSQLTestServer.freshStoreURL()
            let first = try TeamModel.container(url: url, uniqueNames: true)
            let second = try TeamModel.container(url: url, uniqueNames: true)
            TeamModel.insertTeam("Peru", zone: "South America", wins: 1, into: first.viewContext)
            try first.viewContext.save()
            TeamModel.insertTeam("Peru", zone: "Elsewhere", wins: 2, into: second.viewContext)
            var failure: NSError?
            do {
                try second.viewContext.save()
            } catch let error as NSError {
                failure = error
            }
            #expect(failure?.code == NSManagedObjectConstraintMergeError)
            let check = try TeamModel.container(url: url, uniqueNames: true)
            let zones = try check.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team")).compactMap { $0.value(forKey: "qualifyingZone") as? String }
            #expect(zones == ["South America"])
        }
    }
}
#endif
