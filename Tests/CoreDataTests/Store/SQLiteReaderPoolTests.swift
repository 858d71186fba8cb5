@testable import CoreData
import Foundation
import Testing

/// The reader pool's two promises: a read of several statements sees one snapshot, and reads go
/// on while the store's writer holds its transaction open.
@Suite struct SQLiteReaderPoolTests {
    /// A WAL file with one value, a writer connection on it, and a pool of readers.
    func numberFile() throws -> (SQLiteConnection, SQLiteReaderPool, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let path = directory.file("Value.sqlite").path
        let writer = try SQLiteConnection(path: path, create: true)
        try writer.execute("PRAGMA journal_mode=WAL; CREATE TABLE value (v INTEGER); INSERT INTO value (v) VALUES (1)")
        let pool = SQLiteReaderPool(capacity: 2) { try SQLiteConnection(path: path, create: false) }
        return (writer, pool, directory)
    }

    func value(_ connection: SQLiteConnection) throws -> Int64? {
        guard case .integer(let value)? = try connection.scalar("SELECT v FROM value") else { return nil }
        return value
    }

    @Test func aReadOfSeveralStatementsSeesTheSnapshotItStartedWith() throws {
        let (writer, pool, directory) = try numberFile()
        defer { withExtendedLifetime(directory) {} }
        let seen = try pool.read(singleStatement: false) { reader -> [Int64?] in
            let first = try value(reader)
            try writer.run("UPDATE value SET v = 2")  // commits at once, on another connection
            return [first, try value(reader)]
        }
        #expect(seen == [1, 1], "the second statement saw a commit made after the read began")
        // A single-statement read takes no transaction: each statement sees the latest commit.
        let unguarded = try pool.read(singleStatement: true) { reader -> [Int64?] in
            let first = try value(reader)
            try writer.run("UPDATE value SET v = 3")
            return [first, try value(reader)]
        }
        #expect(unguarded == [2, 3])
    }

    @Test func aReaderCheckedOutWhenThePoolClosesIsClosedNotPutBack() throws {
        let (_, pool, directory) = try numberFile()
        defer { withExtendedLifetime(directory) {} }
        try pool.read(singleStatement: true) { _ = try value($0) }
        #expect(pool.idleCount == 1)
        weak var checkedOut: SQLiteConnection?
        try pool.read(singleStatement: false) { reader in
            checkedOut = reader
            pool.close()
            _ = try value(reader)
        }
        #expect(pool.idleCount == 0, "the reader went back into a closed pool")
        #expect(checkedOut == nil, "the reader stayed open after its read ended")
        #expect(throws: NSError.self) { try pool.read(singleStatement: true) { _ in } }
    }

    @Test func aContextReadsWhileTheStoresWriterHoldsItsTransaction() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("Busy.sqlite"))
        let writerContext = container.newBackgroundContext()
        try writerContext.performAndWait {
            writerContext.insertPerson("Ada", age: 36)
            try writerContext.save()
        }
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? SQLiteStore)
        let reader = container.newBackgroundContext()
        let ages = LockedLog()
        let finished = DispatchSemaphore(value: 0)
        var readDuringWrite = DispatchTimeoutResult.timedOut
        try store.writeTransaction { connection in
            try connection.run("UPDATE ZPERSON SET ZAGE = 99")  // not committed until the block returns
            DispatchQueue.global().async {
                let age = reader.performAndWait { () -> Int64? in
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
                    request.returnsObjectsAsFaults = false
                    return (try? reader.fetch(request))?.first?.value(forKey: "age") as? Int64
                }
                ages.append("\(age.map(String.init) ?? "nil")")
                finished.signal()
            }
            // A read that needed the store's lock would wait for this transaction: it must not.
            readDuringWrite = finished.wait(timeout: .now() + 10)
        }
        #expect(readDuringWrite == .success, "the read waited for the writer")
        if readDuringWrite == .timedOut { _ = finished.wait(timeout: .now() + 10) }
        #expect(ages.items.first == "36", "the read saw the committed age, not the writer's open change")
    }
}
