@testable import CoreData
import Foundation
import Testing

/// The section cache's file format and matching rules, below the controller.
@MainActor @Suite struct SectionCacheFileTests {
    let directory = TemporaryDirectory()
    let name = "cache-file-\(UUID().uuidString)"

    /// A snapshot of all teams in the World Cup order, computed in memory.
    func snapshot(_ context: NSManagedObjectContext, ordering: ResultOrdering) throws -> ResultsSnapshot<ResultIdentity, ResultSortKey> {
        let teams = try context.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team"))
        let naming = SectionNaming(keyPath: "qualifyingZone")
        return ResultsSnapshot(
            rows: teams.map { team in
                let row = ResultKeyPath.readAheadRow(of: team)
                return (ResultIdentity(team), ordering.key(for: team, readAhead: row), naming.name(for: team, readAhead: row))
            },
            areInIncreasingOrder: ordering.areInIncreasingOrder)
    }

    func names(_ snapshot: ResultsSnapshot<ResultIdentity, ResultSortKey>) -> [String] {
        snapshot.sections.flatMap { $0.rows.map { ($0.id.object as! WorldCupTeam).teamName ?? "" } }
    }

    @Test func everyKindOfSortValueSurvivesTheFileAndDamagedFilesAreRejected() throws {
        let values: [ConstantValue] = [
            .null, .bool(true), .int(-42), .double(2.5), .decimal(Decimal(string: "12.345")!), .string("Zoë \"quoted\"\n"),
            .date(Date(timeIntervalSinceReferenceDate: 123.456)), .data(Data([0, 255, 7])),
            .uuid(UUID()), .url(URL(string: "https://example.com/a?b=c")!),
        ]
        let key = values.compactMap(CachedValue.init)
        #expect(key.count == values.count)
        let file = SectionCacheFile(
            signature: "sig", storeStamp: "stamp", entityNames: ["Team", "Club"],
            sections: [("A", 2), ("", 1)],
            rows: [.init(entity: 0, primaryKey: 1, key: key), .init(entity: 1, primaryKey: Int64.max, key: []), .init(entity: 0, primaryKey: 3, key: key)])
        let data = file.encoded()
        let read = try #require(SectionCacheFile(decoding: data))
        #expect(read.signature == "sig" && read.storeStamp == "stamp" && read.entityNames == ["Team", "Club"])
        #expect(read.sections.map { "\($0.name)=\($0.count)" } == ["A=2", "=1"])
        #expect(read.rows.map(\.primaryKey) == [1, Int64.max, 3] && read.rows.map(\.entity) == [0, 1, 0])
        #expect(read.rows[0].key.map(\.value) == values)

        for cut in [0, 7, 8, data.count / 2, data.count - 1] {
            #expect(SectionCacheFile(decoding: data.prefix(cut)) == nil, "a file cut at \(cut) bytes is rejected")
        }
        #expect(SectionCacheFile(decoding: data + [0]) == nil, "trailing bytes are rejected")
        var flipped = data
        flipped[8] ^= 0xFF
        #expect(SectionCacheFile(decoding: flipped) == nil, "a nonsensical length is rejected")
    }

    @Test func aWrittenCacheIsReadBackForTheSameRequestUntilTheStoreChanges() throws {
        defer { SectionCache.delete(named: name) }
        let container = try worldCupContainer(storeURL: directory.file("WorldCup.sqlite"))
        let context = container.viewContext
        let request = worldCupRequest().copyRequest(as: NSFetchRequestResult.self)
        let entity = try #require(container.managedObjectModel.entitiesByName["Team"])
        let ordering = ResultOrdering(request.sortDescriptors!)
        let original = try snapshot(context, ordering: ordering)
        SectionCache(name: name, request: request, entity: entity, sectionKeyPath: "qualifyingZone", context: context).write(original)

        let reused = try #require(try SectionCache(name: name, request: request, entity: entity, sectionKeyPath: "qualifyingZone", context: context).cachedSnapshot(ordering: ordering))
        #expect(names(reused) == names(original))
        #expect(reused.sections.map(\.name) == original.sections.map(\.name))
        #expect(reused.sections.map(\.rows.count) == original.sections.map(\.rows.count))

        // Another section key path is another cache.
        #expect(try SectionCache(name: name, request: request, entity: entity, sectionKeyPath: "imageName", context: context).cachedSnapshot(ordering: ordering) == nil)
        // Another predicate too.
        let narrowed = worldCupRequest().copyRequest(as: NSFetchRequestResult.self)
        narrowed.predicate = NSPredicate(format: "wins > 2")
        #expect(try SectionCache(name: name, request: narrowed, entity: entity, sectionKeyPath: "qualifyingZone", context: context).cachedSnapshot(ordering: ordering) == nil)

        // Any write to the store makes it stale.
        let team = try #require(try context.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team")).first)
        team.wins = 9
        try context.save()
        #expect(try SectionCache(name: name, request: request, entity: entity, sectionKeyPath: "qualifyingZone", context: context).cachedSnapshot(ordering: ordering) == nil)
    }

    @Test func aChangedCacheIsWrittenBackOnlyIfNoOtherWriterTouchedTheStore() throws {
        defer { SectionCache.delete(named: name) }
        let container = try worldCupContainer(storeURL: directory.file("WorldCup.sqlite"))
        let context = container.viewContext
        let request = worldCupRequest().copyRequest(as: NSFetchRequestResult.self)
        let entity = try #require(container.managedObjectModel.entitiesByName["Team"])
        let ordering = ResultOrdering(request.sortDescriptors!)
        let cache = SectionCache(name: name, request: request, entity: entity, sectionKeyPath: nil, context: context)
        let path = SectionCache.fileURL(named: name).path
        cache.write(try snapshot(context, ordering: ordering))
        #expect(FileManager.default.fileExists(atPath: path))

        // Our own save: the content is known current, so it is written back.
        cache.invalidate()
        #expect(!FileManager.default.fileExists(atPath: path))
        try context.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team")).first?.wins = 4
        try context.save()
        cache.noteOwnSave()
        cache.flushIfDirty(snapshot: try snapshot(context, ordering: ordering))
        #expect(FileManager.default.fileExists(atPath: path))

        // Another context's save: the content may be stale, so no file.
        cache.invalidate()
        let background = container.newBackgroundContext()
        try background.performAndWait {
            try background.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team")).first?.wins = 8
            try background.save()
        }
        cache.flushIfDirty(snapshot: try snapshot(context, ordering: ordering))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func anInMemoryStoreNeverReusesACache() throws {
        defer { SectionCache.delete(named: name) }
        let container = try worldCupContainer()
        let request = worldCupRequest().copyRequest(as: NSFetchRequestResult.self)
        let entity = try #require(container.managedObjectModel.entitiesByName["Team"])
        let ordering = ResultOrdering(request.sortDescriptors!)
        SectionCache(name: name, request: request, entity: entity, sectionKeyPath: nil, context: container.viewContext)
            .write(try snapshot(container.viewContext, ordering: ordering))
        #expect(!FileManager.default.fileExists(atPath: SectionCache.fileURL(named: name).path))
        #expect(try SectionCache(name: name, request: request, entity: entity, sectionKeyPath: nil, context: container.viewContext).cachedSnapshot(ordering: ordering) == nil)
    }
}
