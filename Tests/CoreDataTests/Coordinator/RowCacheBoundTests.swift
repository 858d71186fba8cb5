@testable import CoreData
import Foundation
import Testing

/// `RowCache` on its own: newest version wins, and the capacity bounds it oldest-first.
@Suite struct RowCacheBoundTests {
    let entity = NSEntityDescription(name: "Note", properties: [NSAttributeDescription(name: "text", type: .stringAttributeType)])
    let store = NSPersistentStore(persistentStoreCoordinator: nil, configurationName: nil, at: URL(fileURLWithPath: "/dev/null"))

    func row(_ key: Int64, version: Int64, _ text: String) -> RowSnapshot {
        RowSnapshot(objectID: NSManagedObjectID(entity: entity, primaryKey: key, store: store), version: version, values: ["text": text])
    }

    @Test func anOlderVersionNeverReplacesANewerOne() {
        let cache = RowCache(capacity: 10)
        cache.store([row(1, version: 3, "three")])
        cache.store([row(1, version: 2, "two")])
        #expect(cache.rows(for: [row(1, version: 0, "").objectID], stalenessInterval: -1).found.values.first?.values["text"] as? String == "three")
        cache.store([row(1, version: 4, "four")])
        #expect(cache.rows(for: [row(1, version: 0, "").objectID], stalenessInterval: -1).found.values.first?.values["text"] as? String == "four")
    }

    @Test func theOldestRowsLeaveOnceTheCapacityIsReached() {
        let cache = RowCache(capacity: 100)
        for key in 1...250 { cache.store([row(Int64(key), version: 1, "\(key)")]) }
        #expect(cache.count == 100)
        let lookup = cache.rows(for: [row(1, version: 0, "").objectID, row(250, version: 0, "").objectID], stalenessInterval: -1)
        #expect(lookup.missing.map(\.primaryKey) == [1])
        #expect(lookup.found.count == 1)
    }

    @Test func aBatchLargerThanTheCapacityOnlyUpdatesWhatIsCached() {
        let cache = RowCache(capacity: 100)
        cache.store((1...40).map { row(Int64($0), version: 1, "\($0)") })
        cache.store((1...40).map { row(Int64($0), version: 2, "new \($0)") } + (1001...1250).map { row(Int64($0), version: 1, "\($0)") })
        #expect(cache.count == 40, "the batch's own rows are not added")
        let ids = [1, 40, 1001, 1250].map { row(Int64($0), version: 0, "").objectID }
        let lookup = cache.rows(for: ids, stalenessInterval: -1)
        #expect(lookup.missing.map(\.primaryKey) == [1001, 1250])
        #expect(lookup.found.values.map(\.version).sorted() == [2, 2], "the cached rows were brought up to date")
        cache.store((1...150).map { row(Int64($0), version: 1, "old") })
        #expect(cache.rows(for: [ids[0]], stalenessInterval: -1).found[ids[0]]?.version == 2,
                "an older version in a large batch does not replace a newer entry")
        cache.store((2001...2100).map { row(Int64($0), version: 1, "x") })
        #expect(cache.count == 100 && cache.rows(for: [ids[0]], stalenessInterval: -1).missing.count == 1,
                "batches within the capacity push out the oldest")
    }

    @Test func removingAndStoringAgainKeepsTheBound() {
        let cache = RowCache(capacity: 10)
        for round in 0..<100 {
            cache.store([row(Int64(round % 3), version: Int64(round), "x")])
            cache.remove([row(Int64(round % 3), version: 0, "").objectID])
        }
        #expect(cache.count == 0)
        #expect(cache.rows(for: [row(1, version: 0, "").objectID], stalenessInterval: 0).missing.count == 1)
    }
}
