@testable import CoreData
import Testing

/// Building a snapshot row by row (`appendInOrder`), as the controller's fetch does.
@Suite struct SnapshotBuildingTests {
    @Test(arguments: EngineLayout.allCases)
    func rowsAppendedInOrderGiveTheSnapshotASortGives(layout: EngineLayout) {
        var generator = SystemRandomNumberGenerator()
        let items = (0..<300).map { EngineItem(id: $0, group: Int.random(in: 0..<7, using: &generator), score: Int.random(in: 0..<40, using: &generator), visible: true) }
        let expected = layout.snapshot(items)
        let sorted = items.sorted { layout.key($0) < layout.key($1) }
        var built = EngineSnapshot(areInIncreasingOrder: <)
        for item in sorted {
            let appended = built.appendInOrder(id: item.id, key: layout.key(item), section: layout.section(item))
            #expect(appended)
        }
        #expect(built.count == expected.count)
        #expect(built.sections.map(\.name) == expected.sections.map(\.name))
        #expect(built.sections.map { $0.rows.map(\.id) } == expected.sections.map { $0.rows.map(\.id) })
        for item in items { #expect(built.address(of: item.id) == expected.address(of: item.id)) }
    }

    @Test func aRowOutOfOrderIsRefusedAndLeavesTheSnapshotAsItWas() {
        var built = EngineSnapshot(areInIncreasingOrder: <)
        func append(_ id: Int, _ first: Int, _ section: String) -> Bool {
            built.appendInOrder(id: id, key: EngineTripleKey(first: first, second: 0, third: 0), section: section)
        }
        #expect(append(1, 1, "A") == true)
        #expect(append(2, 3, "B") == true)
        #expect(append(3, 2, "A") == false)
        // An equal key is not strictly after the last one either.
        #expect(append(4, 3, "B") == false)
        #expect(built.count == 2)
        #expect(built.address(of: 3) == nil)
        #expect(built.rows.map(\.id) == [1, 2])
        #expect(append(5, 4, "A") == true)
        #expect(built.sections.map(\.name) == ["A", "B"])
        #expect(built.sections[0].rows.map(\.id) == [1, 5])
    }
}
