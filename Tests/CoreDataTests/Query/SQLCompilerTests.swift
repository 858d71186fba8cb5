import Foundation
import Testing
@testable import CoreData

@Suite struct SQLCompilerTests {
    static let hostile = ["'; DROP TABLE ZPERSON; --", "%", "_", "a%b_c", "\u{0}", "x\u{0}y", "\"", "\\", "O'Brien",
                          String(repeating: "long ", count: 20_000), "*", "?", "[a]", "😀"]

    private func compile(_ format: String, _ args: Any..., entity: String = "Person", in db: QueryTestDatabase) throws -> (sql: String, bindings: [SQLValue]) {
        let plan = try QueryTestDatabase.plan(db.entity(entity), PredicateParser.parse(format, arguments: args),
                                              [NSSortDescriptor(key: "name", ascending: true, selector: "localizedStandardCompare:")])
        return (plan.sql(selecting: "t0.Z_PK"), plan.bindings)
    }

    @Test func valuesAreOnlyEverBoundNeverSpliced() throws {
        let db = try QueryTestDatabase(seed: 1)
        for value in Self.hostile {
            for op in ["==", "!=", "<", "BEGINSWITH", "CONTAINS[cd]", "ENDSWITH", "LIKE", "==[c]", "IN"] {
                let format = op == "IN" ? "name IN %@" : "name \(op) %@"
                let statement = try compile(format, op == "IN" ? [value] : value, in: db)
                #expect(!statement.sql.contains(value.prefix(40)) || value.count < 2 && !statement.sql.contains("'"), "\(op) \(value.prefix(20))")
                #expect(!statement.sql.contains("'"), "no string literal in \(statement.sql.prefix(200))")
                #expect(statement.bindings.contains(.text(value)) || statement.bindings.contains(.text(StringMatching.fold(value, [.caseInsensitive]))))
            }
        }
    }

    @Test func hostileValuesMatchLiterally() throws {
        let db = try QueryTestDatabase(seed: 1)
        let person = db.entity("Person")
        for (offset, value) in Self.hostile.enumerated() {
            try db.connection.run("INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?1, ?2, 1, ?3)",
                                  [.integer(Int64(1000 + offset)), .integer(Int64(person.entityNumber)), .text(value)])
        }
        for (offset, value) in Self.hostile.enumerated() {
            let key = Int64(1000 + offset)
            #expect(try db.fetchKeys("Person", PredicateParser.parse("name == %@", arguments: [value]), []).contains(key))
            let contains = try db.fetchKeys("Person", PredicateParser.parse("name CONTAINS %@ AND serial == nil", arguments: [value]), [])
            let expected = Self.hostile.enumerated().filter { !value.isEmpty && Data($0.element.utf8).range(of: Data(value.utf8)) != nil }.map { Int64(1000 + $0.offset) }
            #expect(contains == expected, "CONTAINS \(value.prefix(20))")
            let begins = try db.fetchKeys("Person", PredicateParser.parse("name BEGINSWITH %@ AND serial == nil", arguments: [value]), [])
            #expect(begins == Self.hostile.enumerated().filter { $0.element.utf8.starts(with: value.utf8) }.map { Int64(1000 + $0.offset) }, "BEGINSWITH \(value.prefix(20))")
        }
        #expect(try db.connection.scalar("SELECT COUNT(*) FROM ZPERSON") == .integer(Int64(30 + Self.hostile.count)))
    }

    @Test func nilComparisonsAreTwoValued() throws {
        let db = try QueryTestDatabase(seed: 3)
        let people = db.rows["Person"]!
        let withoutAge = Set(people.filter { $0.values["age"] == nil }.map(\.primaryKey))
        let matched = Set(try db.fetchKeys("Person", PredicateParser.parse("NOT (age == 5) AND NOT (age < 100)"), []))
        #expect(!withoutAge.isEmpty && withoutAge.isSubset(of: matched))
        #expect(Set(try db.fetchKeys("Person", PredicateParser.parse("age != 5 AND age == nil"), [])) == withoutAge)
    }

    @Test func unknownKeysAndMisusedOperatorsThrow() throws {
        let db = try QueryTestDatabase(seed: 1)
        let bad = ["nosuchkey == 1", "home.nosuch == 1", "items == 3", "items.title == 'x'", "name.foo == 1", "items.@frob > 1",
                   "SUBQUERY(name, $x, $x == 1).@count > 0", "age IN 3", "name MATCHES '('", "$unbound == 1", "items.@sum.title > 1",
                   "SUBQUERY(items, $i, $i.price > 1) == 1"]
        for format in bad {
            #expect(throws: NSError.self, "\(format)") { try compile(format, in: db) }
        }
        #expect(throws: NSError.self) {
            try SQLCompiler(entity: db.entity("Person")).orderByClause(for: [NSSortDescriptor(key: "items", ascending: true)])
        }
        #expect(throws: NSError.self) {
            try SQLCompiler(entity: db.entity("Person")).whereClause(for: NSPredicate { _, _ in true }.parsedTree())
        }
    }

    @Test func compiledShape() throws {
        let db = try QueryTestDatabase(seed: 1)
        let statement = try compile("home.name ==[c] %@ AND ANY items.price > 2 AND items.@count BETWEEN {1, 3}", "a", in: db)
        #expect(statement.sql.contains("FROM ZPERSON t0 LEFT JOIN ZCITY j1 ON j1.Z_PK = t0.ZHOME"))
        // Person shares its table with no other entity: no Z_ENT filter to evaluate per row.
        #expect(!statement.sql.contains("t0.Z_ENT"))
        #expect(statement.sql.contains("EXISTS (SELECT 1 FROM ZITEM"))
        #expect(statement.sql.contains("ORDER BY j1.ZNAME") == false && statement.sql.contains("ORDER BY t0.ZNAME COLLATE NS_LOCALIZED_STANDARD ASC"))
        #expect(statement.bindings.first == .text("a"))
    }
}
