import Foundation
import ProgramTestSupport
import SwiftData
import Testing

/// The team of `swift run worldcup-swiftdata`, declared again here as a second app sharing its
/// store would declare it.
@Model
final class Team {
    #Unique<Team>([\.teamName])
    var teamName: String
    var qualifyingZone: String
    var imageName: String
    var wins: Int

    init(teamName: String, qualifyingZone: String, imageName: String) {
        self.teamName = teamName
        self.qualifyingZone = qualifyingZone
        self.imageName = imageName
        wins = 0
    }
}

@Suite("Two processes on one store, through history")
struct ProcessHistoryTests {
    @Test func anotherProcessSavesShowInTheHistoryAfterAToken() throws {
        let directory = TemporaryDirectory()
        let arguments = ["--store", directory.url.appendingPathComponent("WorldCup.store").path]
        let program = ExampleProgram(name: "worldcup-swiftdata")
        // Its first launch seeds the store.
        #expect(try program.run([], arguments: arguments).status == 0)

        let context = ModelContext(try ModelContainer(for: Team.self, configurations: ModelConfiguration(url: directory.url.appendingPathComponent("WorldCup.store"))))
        let algeria = try #require(try context.fetch(FetchDescriptor<Team>(predicate: #Predicate { $0.teamName == "Algeria" })).first)
        let token = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token)

        let run = try program.run(["tap Brazil", "add Wenderland Internets", "delete Algeria"], arguments: arguments)
        #expect(run.status == 0, "\(run.output)")
        let later = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
        #expect(later.count == 3)
        #expect(later.allSatisfy { $0.processIdentifier != String(ProcessInfo.processInfo.processIdentifier) })

        guard case .update(let update as DefaultHistoryUpdate<Team>) = try #require(later.first?.changes.first) else {
            Issue.record("expected an update of a Team, got \(later.first?.changes ?? [])")
            return
        }
        #expect(update.updatedAttributes == [\Team.wins])
        let brazil = try #require(context.model(for: update.changedPersistentIdentifier) as? Team)
        #expect(brazil.teamName == "Brazil" && brazil.wins == 1)

        guard case .insert(let insert) = try #require(later[1].changes.first) else {
            Issue.record("expected an insert, got \(later[1].changes)")
            return
        }
        #expect((context.model(for: insert.changedPersistentIdentifier) as? Team)?.teamName == "Wenderland")

        guard case .delete(let delete) = try #require(later[2].changes.first) else {
            Issue.record("expected a delete, got \(later[2].changes)")
            return
        }
        #expect(delete.changedPersistentIdentifier == algeria.persistentModelID)
    }
}
