import Foundation
import SwiftData
import Testing

enum NotesV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model final class Note {
        var title: String
        init(title: String) { self.title = title }
    }
}

enum NotesV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model final class Note {
        @Attribute(originalName: "title") var heading: String
        var words: Int?
        init(heading: String) { self.heading = heading }
    }
}

enum NotesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: NotesV1.self, toVersion: NotesV2.self, willMigrate: nil, didMigrate: { context in
            for note in try context.fetch(FetchDescriptor<NotesV2.Note>()) {
                note.words = note.heading.split(separator: " ").count
            }
        })]
    }
}

/// V2 plus two non-optional properties whose initial values are their defaults.
enum NotesV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model final class Note {
        @Attribute(originalName: "title") var heading: String
        var words: Int?
        var stars: Int = 3
        var status: Status = .draft
        init(heading: String) { self.heading = heading }
    }

    enum Status: String, Codable {
        case draft, published
    }
}

enum NotesDefaultsPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV2.self, NotesV3.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: NotesV2.self, toVersion: NotesV3.self)] }
}

@Suite("Migration through a SchemaMigrationPlan")
struct MigrationTests {
    /// Saves `model` in a new store of `version` at `url`, and closes the store.
    func save(_ model: some PersistentModel, as version: any VersionedSchema.Type, at url: URL) throws {
        let container = try ModelContainer(for: Schema(versionedSchema: version), configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(model)
        try context.save()
        for store in container.persistentContainer.persistentStoreCoordinator.persistentStores {
            try container.persistentContainer.persistentStoreCoordinator.remove(store)
        }
    }

    @Test func customStageRenamesAndFillsTheNewAttribute() throws {
        let directory = TemporaryDirectory()
        try save(NotesV1.Note(title: "three little words"), as: NotesV1.self, at: directory.storeURL)
        let container = try ModelContainer(for: NotesV2.Note.self, migrationPlan: NotesPlan.self, configurations: ModelConfiguration(url: directory.storeURL))
        let notes = try ModelContext(container).fetch(FetchDescriptor<NotesV2.Note>())
        #expect(notes.map(\.heading) == ["three little words"])
        #expect(notes.map(\.words) == [3])
    }

    @Test func initialValuesAreDefaultsThatALightweightStageFillsIn() throws {
        let entity = try #require(Schema(versionedSchema: NotesV3.self).entitiesByName["Note"]?.entityDescription)
        #expect(entity.attributesByName["stars"]?.defaultValue as? Int == 3)
        #expect(entity.attributesByName["status"]?.defaultValue as? String == "draft")
        #expect(entity.attributesByName["words"]?.defaultValue == nil)

        let directory = TemporaryDirectory()
        try save(NotesV2.Note(heading: "saved before stars"), as: NotesV2.self, at: directory.storeURL)
        let container = try ModelContainer(for: NotesV3.Note.self, migrationPlan: NotesDefaultsPlan.self, configurations: ModelConfiguration(url: directory.storeURL))
        let notes = try ModelContext(container).fetch(FetchDescriptor<NotesV3.Note>())
        #expect(notes.map(\.heading) == ["saved before stars"])
        #expect(notes.map(\.stars) == [3])
        #expect(notes.map(\.status) == [.draft])
    }
}
