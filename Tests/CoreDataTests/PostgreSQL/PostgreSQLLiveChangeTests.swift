#if canImport(CoreDataPostgreSQL)
import CoreDataPostgreSQL
import Testing

extension PostgreSQLSuites {
    /// Live changes between coordinators that share only the server (as processes on other
    /// machines do): each commit is announced with NOTIFY, the listener posts
    /// `.NSPersistentStoreRemoteChange`, and a controller whose context merges the history after
    /// its token reports the change.
    @Suite struct PostgreSQLLiveChangeTests {
        static var liveOptions: [String: Any] {
            [NSPersistentHistoryTrackingKey: true as NSNumber, NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber]
        }

        @Test func anotherCoordinatorsSavesReachAControllerThroughHistory() throws {
            let url = try PostgreSQLTestServer.freshStoreURL()
            let observed = try TeamModel.container(url: url, options: Self.liveOptions)
            let writer = try TeamModel.container(url: url, options: Self.liveOptions)
            let inbox = PersistentHistoryTests.RemoteChangeInbox(coordinator: observed.persistentStoreCoordinator)
            let context = observed.viewContext
            let request = NSFetchRequest<NSManagedObject>(entityName: "Team")
            request.sortDescriptors = [NSSortDescriptor(key: "qualifyingZone", ascending: true), NSSortDescriptor(key: "teamName", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "qualifyingZone", cacheName: nil)
            try controller.performFetch()
            var token = observed.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
            var delays: [Duration] = []

            func writerSaves(_ change: (NSManagedObjectContext) throws -> Void) throws {
                let started = ContinuousClock.now
                try change(writer.viewContext)
                try writer.viewContext.save()
                #expect(inbox.next() != nil, "no remote change notification within a second")
                let history = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
                let result = try context.execute(history) as? NSPersistentHistoryResult
                let transactions = try #require(result?.result as? [NSPersistentHistoryTransaction])
                for transaction in transactions {
                    context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                    token = transaction.token
                }
                delays.append(ContinuousClock.now - started)
            }

            try writerSaves { TeamModel.insertTeam("Brazil", zone: "South America", wins: 5, into: $0) }
            try writerSaves { TeamModel.insertTeam("Ghana", zone: "Africa", wins: 1, into: $0) }
            #expect(controller.sections?.map(\.name) == ["Africa", "South America"])
            try writerSaves { context in
                let ghana = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team")).first { $0.value(forKey: "teamName") as? String == "Ghana" }
                ghana?.setValue("South America", forKey: "qualifyingZone")
            }
            #expect(controller.sections?.map(\.name) == ["South America"])
            #expect(controller.fetchedObjects?.map { $0.value(forKey: "teamName") as? String } == ["Brazil", "Ghana"])
            try writerSaves { context in
                for team in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team")) where team.value(forKey: "teamName") as? String == "Brazil" {
                    context.delete(team)
                }
            }
            #expect(controller.fetchedObjects?.map { $0.value(forKey: "teamName") as? String } == ["Ghana"])
            print("PostgreSQLLiveChangeTests: save to merged, per save: \(delays)")
        }

        /// Stops the server, makes `changes`, saves, and starts the server again; the save's error.
        static func saveFailureWithTheServerDown(_ context: NSManagedObjectContext, changes: () -> Void = {}) throws -> NSError? {
            try PostgreSQLTestServer.stop()
            changes()
            var failure: NSError?
            do {
                try context.save()
            } catch let error as NSError {
                failure = error
            }
            try PostgreSQLTestServer.start()
            return failure
        }

        @Test func aSaveWhileTheServerIsDownFailsAndSucceedsOnceItIsBack() throws {
            let url = try PostgreSQLTestServer.freshStoreURL()
            let container = try TeamModel.container(url: url)
            let context = container.viewContext
            TeamModel.insertTeam("Peru", zone: "South America", wins: 1, into: context)
            try context.save()
            TeamModel.insertTeam("Chile", zone: "South America", wins: 2, into: context)
            let error = try #require(try Self.saveFailureWithTheServerDown(context), "a save with the server down must fail")
            #expect(error.domain == NSCocoaErrorDomain)
            #expect([NSPersistentStoreSaveError, NSPersistentStoreOpenError].contains(error.code))
            #expect(error.userInfo[PostgreSQLErrorKeys.connectionLost] as? Bool == true)
            #expect(context.hasChanges)
            try context.save()
            let check = try TeamModel.container(url: url)
            let names = try check.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team")).compactMap { $0.value(forKey: "teamName") as? String }
            #expect(names.sorted() == ["Chile", "Peru"])
        }

        /// A fault fired while the server is away is not a deleted row: the object reads as empty,
        /// a save that includes it fails with the lost connection (not a validation or
        /// referential-integrity error), and once refreshed it reads its row again.
        @Test func aFaultFiredWhileTheServerIsDownIsReadAgainOnceRefreshed() throws {
            let url = try PostgreSQLTestServer.freshStoreURL()
            let context = try TeamModel.container(url: url).viewContext
            let team = TeamModel.insertTeam("Peru", zone: "South America", wins: 1, into: context)
            try context.save()
            context.refresh(team, mergeChanges: false)
            var readWhileDown: Any?
            let failure = try Self.saveFailureWithTheServerDown(context) {
                readWhileDown = team.value(forKey: "teamName")
                team.setValue(Int64(2), forKey: "wins")
            }
            #expect(readWhileDown == nil)
            #expect(failure?.userInfo[PostgreSQLErrorKeys.connectionLost] as? Bool == true, "\(String(describing: failure))")
            context.rollback()
            #expect(team.value(forKey: "teamName") as? String == "Peru")
            team.setValue(Int64(2), forKey: "wins")
            try context.save()
            let check = try TeamModel.container(url: url).viewContext
            #expect(try check.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team")).map { ($0.value(forKey: "wins") as? NSNumber)?.int64Value } == [2])
        }
    }
}
#endif
