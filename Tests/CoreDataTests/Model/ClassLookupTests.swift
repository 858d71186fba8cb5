@testable import CoreData
import Foundation
import Logging
import Testing

/// Used by nothing but its entity's class name, so only a search of the loaded images finds it.
final class Ledger: NSManagedObject {
    @Managed var title: String?
    private(set) var willSaveCalls = 0

    override func willSave() {
        super.willSave()
        willSaveCalls += 1
    }
}

private final class PrivateLedger: NSManagedObject {}

enum Archive {
    final class Folio: NSManagedObject {}
}

/// An entity's bare class name finds its subclass in any loaded module before first use; a
/// name no class has is reported once.
@Suite struct ClassLookupTests {
    static func model() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Ledger", className: "Ledger", properties: [
                NSAttributeDescription(name: "title", type: .stringAttributeType),
            ]),
            NSEntityDescription(name: "PrivateLedger", className: "PrivateLedger", properties: []),
            NSEntityDescription(name: "Folio", className: "CoreDataTests.Archive.Folio", properties: []),
            NSEntityDescription(name: "Stray", className: "NoSuchClassAnywhere", properties: []),
        ])
    }

    @Test func bareClassNameFindsUnusedSubclassInTestBundle() throws {
        let container = try makeContainer(model: Self.model(), storeURL: nil, type: NSInMemoryStoreType)
        let context = container.viewContext
        let ledger = NSEntityDescription.insertNewObject(forEntityName: "Ledger", into: context)
        #expect(ledger is Ledger)
        ledger.setValue("accounts", forKey: "title")
        try context.save()
        #expect((ledger as? Ledger)?.willSaveCalls == 1)
    }

    @Test func privateAndNestedSubclassesAreFoundByName() throws {
        let container = try makeContainer(model: Self.model(), storeURL: nil, type: NSInMemoryStoreType)
        let context = container.viewContext
        #expect(NSEntityDescription.insertNewObject(forEntityName: "PrivateLedger", into: context) is PrivateLedger)
        #expect(NSEntityDescription.insertNewObject(forEntityName: "Folio", into: context) is Archive.Folio)
    }

    @Test func searchOfLoadedImagesFindsClassesByBareAndQualifiedName() {
        #expect(LoadedClassSearch.classes(named: "Ledger").contains { $0 == Ledger.self })
        #expect(LoadedClassSearch.classes(named: "CoreDataTests.Ledger").contains { $0 == Ledger.self })
        #expect(LoadedClassSearch.classes(named: "OtherModule.Ledger").isEmpty)
        #expect(LoadedClassSearch.classes(named: "NoSuchClassAnywhere").isEmpty)
    }

    @Test func unknownClassNameIsReportedOnceAndGivesPlainObjects() throws {
        let messages = CapturedMessages()
        let registry = ManagedObjectClassRegistry(logger: Logger(label: "CoreData") { _ in CapturingLogHandler(messages: messages) })
        let model = Self.model()
        let stray = try #require(model.entitiesByName["Stray"])
        #expect(registry.objectClass(for: stray) == NSManagedObject.self)
        #expect(registry.objectClass(for: stray) == NSManagedObject.self)
        let plain = NSEntityDescription(name: "Plain", properties: [])
        #expect(registry.objectClass(for: plain) == NSManagedObject.self)
        #expect(messages.all.count == 1)
        #expect(messages.all.first?.contains("NoSuchClassAnywhere") == true)
    }
}

final class CapturedMessages: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    var all: [String] { lock.withLock { messages } }
    func append(_ message: String) { lock.withLock { messages.append(message) } }
}

struct CapturingLogHandler: LogHandler {
    let messages: CapturedMessages
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.append("\(event.message)")
    }
}
