import CoreData
import Foundation
import Testing

/// `fetchBatchSize`: results are faults with no row read; touching one reads its whole batch.
@Suite struct FetchBatchSizeTests {
    let directory = TemporaryDirectory()

    @Test func batchedResultsAreFaultsInTheUnbatchedOrder() throws {
        let container = try venueContainer(rows: 120, in: directory)
        let context = container.newBackgroundContext()
        let batched = try context.performAndWait { try context.fetch(venuesByTipsDescending(batchSize: 50)) }
        #expect(batched.count == 120)
        #expect(context.performAndWait { batched.allSatisfy(\.isFault) })
        let names = context.performAndWait { batched.map { $0.value(forKey: "name") as? String } }
        #expect(names == (0..<120).reversed().map { String(format: "Venue %03d", $0) })

        let other = container.newBackgroundContext()
        let plain = try other.performAndWait { try other.fetch(venuesByTipsDescending(batchSize: 0)) }
        #expect(plain.map(\.objectID) == batched.map(\.objectID))
    }

    @Test func touchingAnObjectReadsTheRowsOfItsBatchOnly() throws {
        let container = try venueContainer(rows: 120, in: directory)
        let context = container.newBackgroundContext()
        let venues = try context.performAndWait { try context.fetch(venuesByTipsDescending(batchSize: 50)) }
        #expect(context.performAndWait { venues[0].value(forKey: "tips") as? Int } == 119)
        #expect(context.performAndWait { venues[1].isFault && venues[50].isFault })

        // Change every row behind the context's back: rows already read keep their old values.
        let bump = NSBatchUpdateRequest(entityName: "Venue")
        bump.propertiesToUpdate = ["tips": NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "tips"), NSExpression(forConstantValue: 1000)])]
        _ = try container.newBackgroundContext().execute(bump)

        let tips = context.performAndWait { [1, 49, 50, 99, 100].map { venues[$0].value(forKey: "tips") as? Int } }
        #expect(tips == [118, 70, 1069, 1020, 1019], "the first batch was read with object 0; later batches when first touched")
    }

    @Test func unsavedChangesFallBackToAFullFetchWithTheSameResults() throws {
        let container = try venueContainer(rows: 60, in: directory)
        let context = container.newBackgroundContext()
        let results = try context.performAndWait {
            insertVenue(tips: 1000, into: context)
            return try context.fetch(venuesByTipsDescending(batchSize: 10)).map { $0.value(forKey: "tips") as? Int }
        }
        #expect(results == [1000] + (0..<60).reversed().map { $0 })
    }
}
