import Foundation
@testable import CoreData

/// A row held in memory for the differential tests: reads keys like a managed object, has an
/// entity and an object ID, and mirrors one row of the SQLite database built beside it.
final class QueryTestRow: KeyValueReadable, EntityDescribing, ObjectIDProviding {
    let describedEntity: NSEntityDescription
    let objectID: NSManagedObjectID
    let primaryKey: Int64
    var values: [String: Any] = [:]

    init(entity: NSEntityDescription, primaryKey: Int64, store: NSPersistentStore) {
        self.describedEntity = entity
        self.primaryKey = primaryKey
        self.objectID = NSManagedObjectID(entity: entity, primaryKey: primaryKey, store: store)
    }

    func readValue(forKey key: String) -> Any? { values[key] }
}

/// A small model with every kind of key path the compiler handles (to-one, one-to-many,
/// many-to-many, a self-free chain Item → Person → City), its tables in Apple's layout in an
/// in-memory SQLite database, and the same rows as `QueryTestRow`s.
final class QueryTestDatabase {
    let model: NSManagedObjectModel
    let connection: SQLiteConnection
    let store = NSPersistentStore(persistentStoreCoordinator: nil, configurationName: nil, at: URL(fileURLWithPath: "/dev/null"))
    var rows: [String: [QueryTestRow]] = [:]

    static let strings = [
        "Émile", "emile", "EMILE", "Zoë", "zoe", "straße", "STRASSE", "item 10", "item 2", "Item 3", "", "a%b", "a_b",
        "O'Brien", "'; DROP TABLE ZPERSON; --", "日本語", "🙂 smile", "x\u{0}y", "e\u{301}", "é", "abc", "ABC", "a*c", "ab?",
    ]

    init(seed: UInt64) throws {
        model = Self.makeModel()
        connection = try SQLiteConnection(path: ":memory:", create: true)
        try SQLCompiler.registerFunctions(on: connection.rawHandle!)
        try createTables()
        var random = SplitMix64(seed: seed)
        try populate(&random)
    }

    /// A fresh copy of the model, for a container of managed objects holding the same data.
    static func makeModel() -> NSManagedObjectModel {
        let city = NSEntityDescription(name: "City", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "population", type: .integer64AttributeType),
            NSRelationshipDescription(name: "residents", destination: "Person", toMany: true, inverse: "home"),
        ])
        let person = NSEntityDescription(name: "Person", properties: [
            NSAttributeDescription(name: "serial", type: .integer64AttributeType),
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "nick", type: .stringAttributeType),
            NSAttributeDescription(name: "age", type: .integer64AttributeType),
            NSAttributeDescription(name: "score", type: .doubleAttributeType),
            NSAttributeDescription(name: "born", type: .dateAttributeType),
            NSAttributeDescription(name: "active", type: .booleanAttributeType),
            NSRelationshipDescription(name: "home", destination: "City", inverse: "residents"),
            NSRelationshipDescription(name: "items", destination: "Item", toMany: true, inverse: "owner"),
            NSRelationshipDescription(name: "groups", destination: "Group", toMany: true, inverse: "members"),
        ])
        let item = NSEntityDescription(name: "Item", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
            NSAttributeDescription(name: "price", type: .doubleAttributeType),
            NSAttributeDescription(name: "qty", type: .integer64AttributeType),
            NSRelationshipDescription(name: "owner", destination: "Person", inverse: "items"),
        ])
        let group = NSEntityDescription(name: "Group", properties: [
            NSAttributeDescription(name: "label", type: .stringAttributeType),
            NSRelationshipDescription(name: "members", destination: "Person", toMany: true, inverse: "groups"),
        ])
        return NSManagedObjectModel(entities: [city, person, item, group])
    }

    func entity(_ name: String) -> NSEntityDescription { model.entitiesByName[name]! }

    private func createTables() throws {
        var joinTables: [String: String] = [:]
        for entity in model.entities {
            var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            for property in entity.properties {
                if let attribute = property as? NSAttributeDescription {
                    columns.append("\(SQLiteSchema.column(for: attribute)) \(SQLiteSchema.columnType(for: attribute))")
                } else if let relationship = property as? NSRelationshipDescription {
                    if !relationship.isToMany {
                        columns.append("\(SQLiteSchema.column(for: relationship)) INTEGER")
                    } else if case .joinTable(let table, let source, let destination, _) = SQLiteSchema.storage(of: relationship) {
                        let ordered = [source, destination].sorted()
                        joinTables[table] = "CREATE TABLE \(table) (\(ordered[0]) INTEGER, \(ordered[1]) INTEGER)"
                    }
                }
            }
            try connection.execute("CREATE TABLE \(SQLiteSchema.table(for: entity)) (\(columns.joined(separator: ", ")))")
        }
        for statement in joinTables.values { try connection.execute(statement) }
    }

    private func insert(_ row: QueryTestRow) throws {
        let entity = row.describedEntity
        var names = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values: [SQLValue] = [.integer(row.primaryKey), .integer(Int64(entity.entityNumber)), .integer(1)]
        for property in entity.properties {
            if let attribute = property as? NSAttributeDescription {
                names.append(SQLiteSchema.column(for: attribute))
                values.append(Self.encode(row.values[attribute.name]))
            } else if let relationship = property as? NSRelationshipDescription, !relationship.isToMany {
                names.append(SQLiteSchema.column(for: relationship))
                values.append((row.values[relationship.name] as? QueryTestRow).map { .integer($0.primaryKey) } ?? .null)
            }
        }
        let placeholders = values.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        try connection.run("INSERT INTO \(SQLiteSchema.table(for: entity)) (\(names.joined(separator: ", "))) VALUES (\(placeholders))", values)
    }

    static func encode(_ value: Any?) -> SQLValue {
        switch value {
        case let number as NSNumber where String(cString: number.objCType) == "d": .real(number.doubleValue)
        case let number as NSNumber: .integer(number.int64Value)
        case let text as String: .text(text)
        case let date as Date: .real(date.timeIntervalSinceReferenceDate)
        default: .null
        }
    }

    private func populate(_ random: inout SplitMix64) throws {
        var nextKey: Int64 = 1
        func make(_ entity: String) -> QueryTestRow {
            defer { nextKey += 1 }
            return QueryTestRow(entity: self.entity(entity), primaryKey: nextKey, store: store)
        }
        let cities = (0..<5).map { index -> QueryTestRow in
            let city = make("City")
            city.values["name"] = index == 4 ? nil : Self.strings[random.next(below: Self.strings.count)]
            city.values["population"] = index == 3 ? nil : NSNumber(value: Int64(random.next(below: 5) * 1000))
            return city
        }
        let groups = (0..<4).map { _ -> QueryTestRow in
            let group = make("Group")
            group.values["label"] = random.next(below: 5) == 0 ? nil : Self.strings[random.next(below: Self.strings.count)]
            return group
        }
        var people: [QueryTestRow] = []
        var items: [QueryTestRow] = []
        for serial in 0..<30 {
            let person = make("Person")
            person.values["serial"] = NSNumber(value: Int64(serial))
            person.values["name"] = random.next(below: 8) == 0 ? nil : Self.strings[random.next(below: Self.strings.count)]
            person.values["nick"] = random.next(below: 3) == 0 ? nil : Self.strings[random.next(below: Self.strings.count)]
            person.values["age"] = random.next(below: 6) == 0 ? nil : NSNumber(value: Int64(random.next(below: 80)) - 10)
            person.values["score"] = random.next(below: 6) == 0 ? nil : NSNumber(value: Double(random.next(below: 200)) / 8 - 5)
            person.values["born"] = random.next(below: 6) == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(random.next(below: 1000)) * 86400)
            person.values["active"] = random.next(below: 5) == 0 ? nil : NSNumber(value: random.next(below: 2) == 1)
            person.values["home"] = random.next(below: 4) == 0 ? nil : cities[random.next(below: cities.count)]
            var owned: [QueryTestRow] = []
            for _ in 0..<random.next(below: 4) {
                let item = make("Item")
                item.values["title"] = random.next(below: 6) == 0 ? nil : Self.strings[random.next(below: Self.strings.count)]
                item.values["price"] = random.next(below: 6) == 0 ? nil : NSNumber(value: Double(random.next(below: 100)) / 4)
                item.values["qty"] = random.next(below: 6) == 0 ? nil : NSNumber(value: Int64(random.next(below: 10)))
                item.values["owner"] = person
                owned.append(item)
            }
            person.values["items"] = owned
            items += owned
            people.append(person)
        }
        for person in people {
            let joined = groups.filter { _ in random.next(below: 3) == 0 }
            person.values["groups"] = joined
        }
        for group in groups { group.values["members"] = people.filter { ($0.values["groups"] as! [QueryTestRow]).contains { $0 === group } } }
        for city in cities { city.values["residents"] = people.filter { $0.values["home"] as? QueryTestRow === city } }
        for row in cities + groups + people + items { try insert(row) }
        let relationship = entity("Person").relationshipsByName["groups"]!
        guard case .joinTable(let table, let source, let destination, _) = SQLiteSchema.storage(of: relationship) else { return }
        for person in people {
            for group in person.values["groups"] as! [QueryTestRow] {
                try connection.run("INSERT INTO \(table) (\(source), \(destination)) VALUES (?1, ?2)", [.integer(person.primaryKey), .integer(group.primaryKey)])
            }
        }
        rows = ["City": cities, "Group": groups, "Person": people, "Item": items]
    }

    /// The SQL the store runs for a fetch of `entity`.
    static func plan(_ entity: NSEntityDescription, _ predicate: PredicateNode?, _ sort: [NSSortDescriptor]) throws -> SQLFetchPlan {
        var fetch = StoreFetch(entity: entity)
        fetch.predicate = predicate.map(NSPredicate.init(tree:))
        fetch.sortDescriptors = sort
        return try SQLFetchPlan(fetch: fetch)
    }

    /// The primary keys a compiled fetch returns, in order.
    func fetchKeys(_ entity: String, _ predicate: PredicateNode?, _ sort: [NSSortDescriptor]) throws -> [Int64] {
        let statement = try Self.plan(self.entity(entity), predicate, sort)
        var keys: [Int64] = []
        try connection.query(statement.sql(selecting: "t0.Z_PK"), statement.bindings) { row in keys.append(row.int64(at: 0)) }
        return keys
    }
}

/// Drawing test data from the shared seeded generator.
extension SplitMix64 {
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
    mutating func pick<T>(_ options: [T]) -> T { options[next(below: options.count)] }
}
