import Foundation
import Testing
@testable import CoreData

@Suite struct SortDescriptorTests {
    @Test func keyAndSelectorSurviveReversalAndCopy() {
        let descriptor = NSSortDescriptor(key: "bucket.name", ascending: true, selector: Selector("localizedStandardCompare:"))
        #expect(descriptor.key == "bucket.name" && descriptor.ascending)
        #expect(descriptor.selector == Selector("localizedStandardCompare:"))
        let reversed = descriptor.reversedSortDescriptor as! NSSortDescriptor
        #expect(reversed.key == "bucket.name" && !reversed.ascending && reversed.selector?.name == "localizedStandardCompare:")
        #expect((descriptor.copy() as! NSSortDescriptor).key == "bucket.name")
        #expect(NSSortDescriptor(key: "a", ascending: false).selector == Selector("compare:"))
    }

    @Test func foundationCompareUsesOurComparison() {
        let descriptor = NSSortDescriptor(key: "title", ascending: true, selector: "localizedStandardCompare:")
        let a: [String: Any] = ["title": "item 2"], b: [String: Any] = ["title": "item 10"]
        #expect(descriptor.compare(a, to: b) == .orderedAscending)
        #expect((descriptor.reversedSortDescriptor as! NSSortDescriptor).compare(a, to: b) == .orderedDescending)
    }

    @Test func selectorsOrderStrings() throws {
        let rows: [[String: Any]] = ["item 10", "item 2", "Item 3", "apple", "Banana"].map { ["t": $0] }
        func order(_ selector: String, ascending: Bool = true) throws -> [String] {
            try SortComparison([NSSortDescriptor(key: "t", ascending: ascending, selector: Selector(selector))]).sorted(rows).map { $0["t"] as! String }
        }
        #expect(try order("compare:") == ["Banana", "Item 3", "apple", "item 10", "item 2"])
        #expect(try order("caseInsensitiveCompare:") == ["apple", "Banana", "item 10", "item 2", "Item 3"])
        #expect(try order("localizedStandardCompare:") == ["apple", "Banana", "item 2", "Item 3", "item 10"])
        #expect(try order("compare:", ascending: false) == ["item 2", "item 10", "apple", "Item 3", "Banana"])
    }

    @Test func nilSortsFirstAscendingAndTiesKeepTheirOrder() throws {
        let rows: [[String: Any]] = [["n": 2, "id": 1], ["id": 2], ["n": 1, "id": 3], ["n": 2, "id": 4], ["id": 5]]
        let ids = { (descriptors: [NSSortDescriptor]) in try SortComparison(descriptors).sorted(rows).map { $0["id"] as! Int } }
        #expect(try ids([NSSortDescriptor(key: "n", ascending: true)]) == [2, 5, 3, 1, 4])
        #expect(try ids([NSSortDescriptor(key: "n", ascending: false)]) == [1, 4, 3, 2, 5])
        #expect(try ids([NSSortDescriptor(key: "n", ascending: false), NSSortDescriptor(key: "id", ascending: false)]) == [4, 1, 3, 5, 2])
    }

    @Test func keyPathsThroughToOneAndComparators() throws {
        let rows: [[String: Any]] = [["o": ["n": "b"]], ["o": ["n": "a"]], [:]]
        let sorted = try SortComparison([NSSortDescriptor(key: "o.n", ascending: true)]).sorted(rows)
        #expect(sorted.map { ($0["o"] as? [String: Any])?["n"] as? String } == [nil, "a", "b"])
        let byLength = NSSortDescriptor(key: "s", ascending: true) { lhs, rhs in
            let (l, r) = ((lhs as? String)?.count ?? 0, (rhs as? String)?.count ?? 0)
            return l < r ? .orderedAscending : l > r ? .orderedDescending : .orderedSame
        }
        let strings: [[String: Any]] = [["s": "ccc"], ["s": "a"], ["s": "bb"]]
        #expect(try SortComparison([byLength]).sorted(strings).map { $0["s"] as! String } == ["a", "bb", "ccc"])
        #expect(byLength.selector == nil && byLength.key == "s")
        #expect(throws: NSError.self) { try SortComparison([NSSortDescriptor(key: "s", ascending: true, selector: "compareNumbers:")]) }
    }
}

@Suite struct TypedKeyPathSortTests {
    @Test func typedKeyPathsBecomeKeyBasedDescriptors() throws {
        let container = try makeContainer(model: TestModels.dogWalk(), storeURL: nil, type: NSInMemoryStoreType)
        defer { withExtendedLifetime(container) {} }
        #expect(NSSortDescriptor(keyPath: \Walk.date, ascending: false).key == "date")
        #expect(NSSortDescriptor(keyPath: \Walk.dog?.name, ascending: true).key == "dog.name")
        #expect(NSSortDescriptor(SortDescriptor(\Dog.name, order: .reverse)).key == "name")
        #expect(NSSortDescriptor(SortDescriptor(\Dog.name, order: .reverse)).ascending == false)
        #expect(NSExpression(forKeyPath: \Walk.dog?.name).keyPath == "dog.name")
    }
}
