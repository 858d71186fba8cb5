import CoreData
import Foundation
import Testing

@Suite struct StoreFileTests {
    let directory = TemporaryDirectory()

    func attemptLoad(_ url: URL, model: NSManagedObjectModel = SmokeTests.personModel()) -> NSError? {
        do {
            _ = try makeContainer(model: model, storeURL: url)
            return nil
        } catch {
            return error as NSError
        }
    }

    func sqlite3(_ arguments: String...) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = arguments
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    @Test(arguments: ["random", "truncated", "empty", "foreign-sqlite"])
    func unusableFilesGiveAClearErrorAndStayUntouched(kind: String) throws {
        let url = directory.file("\(kind).sqlite")
        switch kind {
        case "random":
            try Data((0..<8192).map { _ in UInt8.random(in: 0...255) }).write(to: url)
        case "truncated":
            let source = directory.file("source.sqlite")
            let context = try makeContainer(model: SmokeTests.personModel(), storeURL: source).newBackgroundContext()
            try context.performAndWait {
                for index in 0..<200 {
                    NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Person \(index)", forKey: "name")
                }
                try context.save()
            }
            _ = try sqlite3(source.path, "PRAGMA wal_checkpoint(TRUNCATE);")
            let bytes = try Data(contentsOf: source)
            try bytes.prefix(bytes.count / 3).write(to: url)
        case "empty":
            try Data().write(to: url)
        default:
            _ = try sqlite3(url.path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hi');")
        }
        let before = try Data(contentsOf: url)
        let error = try #require(attemptLoad(url))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == 259)
        #expect(error.localizedDescription.contains(url.path))
        #expect(try Data(contentsOf: url) == before, "the file is left byte-for-byte as it was")
    }

    @Test func aStoreWrittenWithAnotherModelIsRefusedUntouched() throws {
        let url = directory.file("model.sqlite")
        _ = try makeContainer(model: SmokeTests.personModel(), storeURL: url)
        _ = try sqlite3(url.path, "PRAGMA wal_checkpoint(TRUNCATE);")
        let before = try Data(contentsOf: url)
        let error = try #require(attemptLoad(url, model: TestModels.dogWalk()))
        #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func schemaFollowsApplesLayout() throws {
        let url = directory.file("layout.sqlite")
        let container = try makeContainer(model: TestModels.dogWalk(), storeURL: url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let dog = Dog(context: context)
            Walk(context: context).dog = dog
            try context.save()
        }
        let schema = try sqlite3(url.path, ".schema")
        #expect(schema.contains("CREATE TABLE ZDOG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)"))
        #expect(schema.contains("CREATE TABLE ZWALK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATE TIMESTAMP, ZDOG INTEGER, Z_FOK_DOG INTEGER)"))
        #expect(schema.contains("CREATE TABLE Z_PRIMARYKEY"))
        #expect(schema.contains("CREATE TABLE Z_METADATA"))
        #expect(try sqlite3(url.path, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT;") == "Dog|1\nWalk|1\n")
    }
}
