import Testing
@testable import CoreData

/// Named scenarios for the incremental engine, each pinning one rule of DESIGN.md §7.
@Suite struct ChangeBatchTests {
    let layout = EngineLayout.sectionKeyFirst

    /// Zone 0: ids 0,1,2 with scores 3,2,1; zone 1: ids 3,4 with scores 3,2.
    var items: [Int: EngineItem] {
        [
            0: EngineItem(id: 0, group: 0, score: 3, visible: true),
            1: EngineItem(id: 1, group: 0, score: 2, visible: true),
            2: EngineItem(id: 2, group: 0, score: 1, visible: true),
            3: EngineItem(id: 3, group: 1, score: 3, visible: true),
            4: EngineItem(id: 4, group: 1, score: 2, visible: true),
        ]
    }

    func run(_ edit: (inout [Int: EngineItem]) -> Void, touched: Set<Int>, edited: Set<Int>)
        throws -> ChangeBatch<Int>
    {
        var data = items
        var engine = layout.snapshot(data.values)
        let old = engine
        edit(&data)
        let batch = engine.apply(touched.map { layout.change(for: $0, in: data, contentChanged: edited.contains($0)) })
        let fresh = layout.snapshot(data.values)
        #expect(EngineTable(engine) == EngineTable(fresh))
        try ReplayChecker.check(batch, old: EngineTable(old), new: EngineTable(fresh), changed: touched, contentChanged: edited)
        return batch
    }

    @Test func editThatKeepsItsPlaceIsAnUpdateAtTheOldIndexPath() throws {
        let batch = try run({ $0[1]!.version += 1 }, touched: [1], edited: [1])
        #expect(batch.sectionChanges.isEmpty)
        #expect(batch.objectChanges.count == 1)
        #expect(batch.objectChanges[0].kind == .update)
        #expect(batch.objectChanges[0].oldAddress == RowAddress(section: 0, row: 1))
    }

    @Test func sortKeyEditThatCrossesANeighbourIsAMove() throws {
        let batch = try run({ $0[2]!.score = 9 }, touched: [2], edited: [2])
        #expect(batch.objectChanges.map(\.kind) == [.move])
        #expect(batch.objectChanges[0].oldAddress == RowAddress(section: 0, row: 2))
        #expect(batch.objectChanges[0].newAddress == RowAddress(section: 0, row: 0))
    }

    @Test func sortKeyEditThatStaysBetweenTheSameNeighboursIsAnUpdate() throws {
        // Score 2 → 2.5 is impossible with ints; 3 → 9 for the first row keeps it first.
        let batch = try run({ $0[0]!.score = 9 }, touched: [0], edited: [0])
        #expect(batch.objectChanges.map(\.kind) == [.update])
    }

    @Test func untouchedContentAndPlaceIsNotReported() throws {
        let batch = try run({ _ in }, touched: [1], edited: [])
        #expect(batch.isEmpty)
    }

    @Test func removingLastElementOfSectionDeletesSection() throws {
        let batch = try run({ $0[3] = nil; $0[4] = nil }, touched: [3, 4], edited: [])
        #expect(batch.sectionChanges == [.init(kind: .delete, index: 1, name: "Z1")])
        #expect(batch.objectChanges.map(\.kind) == [.delete, .delete])
    }

    @Test func insertIntoANewSectionInsertsTheSectionFirst() throws {
        let batch = try run({ $0[9] = EngineItem(id: 9, group: 7, score: 0, visible: true) }, touched: [9], edited: [])
        #expect(batch.sectionChanges == [.init(kind: .insert, index: 2, name: "Z7")])
        #expect(batch.objectChanges.count == 1)
        #expect(batch.objectChanges[0].kind == .insert)
        #expect(batch.objectChanges[0].newAddress == RowAddress(section: 2, row: 0))
    }

    @Test func movingOutOfADeletedSectionIsReportedAsAnInsert() throws {
        let batch = try run({ $0[3]!.group = 0; $0[4] = nil }, touched: [3, 4], edited: [3])
        #expect(batch.sectionChanges == [.init(kind: .delete, index: 1, name: "Z1")])
        let moved = try #require(batch.objectChanges.first { $0.id == 3 })
        #expect(moved.kind == .insert)
        #expect(moved.newAddress == RowAddress(section: 0, row: 1))
    }

    @Test func predicateFlipsInsertAndDelete() throws {
        let batch = try run({ $0[1]!.visible = false }, touched: [1], edited: [1])
        #expect(batch.objectChanges.map(\.kind) == [.delete])
        #expect(batch.objectChanges[0].oldAddress == RowAddress(section: 0, row: 1))
    }

    @Test func swappingTwoAdjacentRowsMovesOnlyOne() throws {
        let batch = try run({ $0[0]!.score = 2; $0[1]!.score = 3 }, touched: [0, 1], edited: [0, 1])
        #expect(batch.objectChanges.filter { $0.kind == .move }.count == 1)
        #expect(batch.objectChanges.count == 2)
    }

    @Test func swappingRowsAroundAnUnchangedOneMovesBoth() throws {
        // Row 1 is not reported, so both rows that cross it must move.
        let batch = try run({ $0[0]!.score = 1; $0[2]!.score = 3 }, touched: [0, 2], edited: [0, 2])
        #expect(batch.objectChanges.map(\.kind) == [.move, .move])
    }

    @Test func sectionThatChangesOrderIsDeletedAndInsertedAgain() throws {
        // Sorted by score but sectioned by group: raising zone 1's only row reorders sections.
        let layout = EngineLayout.sectionKeyNotFirst
        let data: [Int: EngineItem] = [
            0: EngineItem(id: 0, group: 0, score: 1, visible: true),
            1: EngineItem(id: 1, group: 1, score: 2, visible: true),
        ]
        var engine = layout.snapshot(data.values)
        let old = engine
        var edited = data
        edited[1]!.score = 0
        let batch = engine.apply([layout.change(for: 1, in: edited, contentChanged: true)])
        let fresh = layout.snapshot(edited.values)
        #expect(EngineTable(fresh).sections.map(\.name) == ["Z1", "Z0"])
        try ReplayChecker.check(batch, old: EngineTable(old), new: EngineTable(fresh), changed: [1], contentChanged: [1])
        #expect(batch.sectionChanges.count == 2)
    }
}

/// The checker must reject what a table would reject, or it proves nothing.
@Suite struct ReplayCheckerTests {
    let old = EngineTable(sections: [.init(name: "A", ids: [1, 2, 3]), .init(name: "B", ids: [4])])

    func change(_ id: Int, _ kind: ChangeBatch<Int>.Kind, _ old: (Int, Int)?, _ new: (Int, Int)?)
        -> ChangeBatch<Int>.ObjectChange
    {
        .init(
            id: id, kind: kind,
            oldAddress: old.map { RowAddress(section: $0.0, row: $0.1) },
            newAddress: new.map { RowAddress(section: $0.0, row: $0.1) },
            contentChanged: true)
    }

    @Test func rejectsAnObjectReportedTwice() {
        var batch = ChangeBatch<Int>()
        batch.objectChanges = [change(2, .update, (0, 1), (0, 1)), change(2, .update, (0, 1), (0, 1))]
        #expect(throws: ReplayChecker<Int>.Failure.self) {
            try ReplayChecker.check(batch, old: old, new: old, changed: nil, contentChanged: [2])
        }
    }

    @Test func rejectsAMoveWhereAnUpdateSuffices() {
        var batch = ChangeBatch<Int>()
        batch.objectChanges = [change(2, .move, (0, 1), (0, 1))]
        #expect(throws: ReplayChecker<Int>.Failure.self) {
            try ReplayChecker.check(batch, old: old, new: old, changed: nil, contentChanged: [2])
        }
    }

    @Test func rejectsAMoveOutOfADeletedSection() {
        let new = EngineTable(sections: [.init(name: "A", ids: [1, 2, 3, 4])])
        var batch = ChangeBatch<Int>()
        batch.sectionChanges = [.init(kind: .delete, index: 1, name: "B")]
        batch.objectChanges = [change(4, .move, (1, 0), (0, 3))]
        #expect(throws: ReplayChecker<Int>.Failure.self) {
            try ReplayChecker.check(batch, old: old, new: new, changed: nil, contentChanged: [])
        }
    }

    @Test func rejectsAWrongOldIndexPath() {
        let new = EngineTable(sections: [.init(name: "A", ids: [1, 3]), .init(name: "B", ids: [4])])
        var batch = ChangeBatch<Int>()
        batch.objectChanges = [change(2, .delete, (0, 2), nil)]
        #expect(throws: ReplayChecker<Int>.Failure.self) {
            try ReplayChecker.check(batch, old: old, new: new, changed: nil, contentChanged: [])
        }
    }

    @Test func rejectsAMissingContentUpdate() {
        #expect(throws: ReplayChecker<Int>.Failure.self) {
            try ReplayChecker.check(ChangeBatch<Int>(), old: old, new: old, changed: nil, contentChanged: [3])
        }
    }

    @Test func acceptsAMoveIntoAnInsertedSection() throws {
        let new = EngineTable(sections: [.init(name: "A", ids: [1, 3]), .init(name: "B", ids: [4]), .init(name: "C", ids: [2])])
        var batch = ChangeBatch<Int>()
        batch.sectionChanges = [.init(kind: .insert, index: 2, name: "C")]
        batch.objectChanges = [change(2, .move, (0, 1), (2, 0))]
        try ReplayChecker.check(batch, old: old, new: new, changed: nil, contentChanged: [2])
    }
}

@Suite struct IncreasingSubsequenceTests {
    @Test func longestKeepsTheIncreasingCore() {
        let keep = IncreasingSubsequence.longest([0, 5, 1, 2, 6, 3, 4])
        #expect(keep == [true, false, true, true, false, true, true])
    }

    @Test func heaviestPrefersWeight() {
        // Taking the single heavy element beats the two light ones it conflicts with.
        let keep = IncreasingSubsequence.heaviest([2, 0, 1], weights: [10, 1, 1], bound: 3)
        #expect(keep == [true, false, false])
    }
}
