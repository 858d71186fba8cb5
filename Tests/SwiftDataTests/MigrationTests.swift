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

@Suite("Migration through a SchemaMigrationPlan")
struct MigrationTests {
    @Test func customStageRenamesAndFillsTheNewAttribute() throws {
        let directory = TemporaryDirectory()
        do {
            let container = try ModelContainer(for: Schema(versionedSchema: NotesV1.self), configurations: ModelConfiguration(url: directory.storeURL))
            let context = ModelContext(container)
            context.insert(NotesV1.Note(title: "three little words"))
            try context.save()
            for store in container.persistentContainer.persistentStoreCoordinator.persistentStores {
                try container.persistentContainer.persistentStoreCoordinator.remove(store)
            }
        }
        let container = try ModelContainer(for: NotesV2.Note.self, migrationPlan: NotesPlan.self, configurations: ModelConfiguration(url: directory.storeURL))
        let notes = try ModelContext(container).fetch(FetchDescriptor<NotesV2.Note>())
        #expect(notes.map(\.heading) == ["three little words"])
        #expect(notes.map(\.words) == [3])
    }
}
