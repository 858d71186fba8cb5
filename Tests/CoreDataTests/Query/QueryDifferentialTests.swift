import Foundation
import Testing
@testable import CoreData

/// Random predicates and sorts over a fixed data set with relationships, nils, Unicode and
/// numbers, checked three ways: the SQL compiler on SQLite, the in-memory evaluator and sort,
/// and the plain Swift reference filter of `QueryCases`. Any disagreement prints the predicate.
@Suite struct QueryDifferentialTests {
    typealias Row = QueryTestRow

    @Test(arguments: [UInt64(20_261_122), 7])
    func sqlEvaluatorAndReferenceAgree(seed: UInt64) throws {
        let db = try QueryTestDatabase(seed: seed)
        var random = SplitMix64(seed: seed &* 31 &+ 1)
        let people = db.rows["Person"]!
        var disagreements = 0
        for _ in 0..<5_000 {
            let generated = QueryCases.predicate(&random, db.rows)
            let sort = QueryCases.sortDescriptors(&random)
            let tree = try PredicateParser.parse(generated.format, arguments: generated.args)
            let described = "\(generated.format) \(generated.args) sorted by \(sort.map { "\($0.key!) \($0.ascending) \($0.selector!)" })"
            let sqlKeys: [Int64]
            do {
                sqlKeys = try db.fetchKeys("Person", tree, sort)
            } catch {
                Issue.record("SQL failed for \(described): \(error)")
                disagreements += 1
                continue
            }
            let evaluator = PredicateEvaluator(tree)
            let matching = try people.filter { try evaluator.evaluate($0) }
            let memoryKeys = try SortComparison(sort).sorted(matching).map(\.primaryKey)
            let referenceKeys = Set(people.filter(generated.reference).map(\.primaryKey))
            if sqlKeys != memoryKeys || Set(sqlKeys) != referenceKeys {
                disagreements += 1
                if disagreements <= 10 {
                    Issue.record("disagreement for \(described)\n  sql: \(sqlKeys)\n  memory: \(memoryKeys)\n  reference: \(referenceKeys.sorted())")
                }
            }
        }
        #expect(disagreements == 0)
    }

    /// Key paths from Item through two to-one steps, and to-one nil in the middle.
    @Test func toOneChainsAgree() throws {
        let db = try QueryTestDatabase(seed: 99)
        let items = db.rows["Item"]!
        for format in ["owner.home.name ==[cd] 'emile'", "owner.home == nil", "owner.age > 20 OR owner.home.population >= 2000",
                       "owner.home.name BEGINSWITH 'Z' AND NOT owner.name == nil", "ANY owner.groups.label != nil"] {
            let tree = try PredicateParser.parse(format)
            let sql = try db.fetchKeys("Item", tree, [NSSortDescriptor(key: "owner.home.name", ascending: false), NSSortDescriptor(key: "title", ascending: true)])
            let evaluator = PredicateEvaluator(tree)
            let memory = try SortComparison([NSSortDescriptor(key: "owner.home.name", ascending: false), NSSortDescriptor(key: "title", ascending: true)])
                .sorted(items.filter { try evaluator.evaluate($0) }).map(\.primaryKey)
            #expect(sql == memory, "\(format)")
        }
    }
}
