@testable import CoreData
import Foundation
import Testing

/// The prepared-statement cache of a connection stays bounded whatever shapes arrive, and never
/// finalises a statement that is still running.
@Suite struct StatementCacheTests {
    func numbersConnection() throws -> (SQLiteConnection, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("Numbers.sqlite").path, create: true)
        try connection.execute("CREATE TABLE numbers (n INTEGER PRIMARY KEY)")
        try connection.transaction {
            for n in 1...400 { try connection.run("INSERT INTO numbers (n) VALUES (?)", [.integer(Int64(n))]) }
        }
        return (connection, directory)
    }

    @Test func inListsOfEveryLengthKeepTheCacheWithinItsBound() throws {
        let (connection, _) = try numbersConnection()
        for length in 1...300 {
            let placeholders = Array(repeating: "?", count: length).joined(separator: ",")
            var count = 0
            try connection.query("SELECT n FROM numbers WHERE n IN (\(placeholders))", (1...length).map { .integer(Int64($0)) }) { _ in count += 1 }
            #expect(count == length)
            #expect(connection.cachedStatementCount <= SQLiteConnection.statementCapacity)
        }
        #expect(connection.cachedStatementCount == SQLiteConnection.statementCapacity)
    }

    @Test func aStatementRunningInACallbackSurvivesEvictionsItCauses() throws {
        let (connection, _) = try numbersConnection()
        var seen: [Int64] = []
        try connection.query("SELECT n FROM numbers WHERE n <= 50 ORDER BY n") { row in
            seen.append(row.int64(at: 0))
            // Each row prepares a new shape: with the cache full, the outer statement is the
            // least recently used, and must not be the one evicted.
            let shape = "SELECT n FROM numbers WHERE n = ? AND \(seen.count + 1000) > 0"
            for _ in 0..<3 { _ = try connection.scalar(shape, [.integer(1)]) }
            for extra in 0..<(SQLiteConnection.statementCapacity / 20) {
                _ = try connection.scalar("SELECT \(extra) + ? + \(seen.count * 100)", [.integer(1)])
            }
        }
        #expect(seen == Array(1...50))
        #expect(connection.cachedStatementCount <= SQLiteConnection.statementCapacity)
    }

    @Test func predicatesWithInListsOfManyLengthsFetchTheirRows() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("In.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<250 { context.insertPerson("P\(index)", age: Int64(index)) }
            try context.save()
            for length in stride(from: 1, through: 250, by: 1) {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
                request.predicate = NSPredicate(format: "age IN %@", (0..<length).map { Int64($0) })
                #expect(try context.count(for: request) == length)
            }
        }
    }
}
