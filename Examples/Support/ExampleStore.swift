#if canImport(CoreDataPostgreSQL)
import CoreDataPostgreSQL
#endif
import CoreData
import Foundation

/// Opens an example's container: its `.xcdatamodeld` from the program's resources, its SQLite
/// store at `--store` or in the user's data directory. A file that is not a store ends the
/// program with a message naming it; the file is left as it was.
public enum ExampleStore {
    /// With `followsOtherProcesses`, the store records persistent history and posts remote
    /// change notifications, for `OtherProcessSaves`.
    public static func open(name: String, options: ExampleOptions, followsOtherProcesses: Bool = false) -> NSPersistentContainer {
        let container = NSPersistentContainer(name: name)
        if let storePath = options.storePath {
            container.persistentStoreDescriptions = [description(forStoreAt: storePath)]
        }
        if followsOtherProcesses, let description = container.persistentStoreDescriptions.first {
            description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
            description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        }
        var failure: Error?
        container.loadPersistentStores { _, error in
            if let error { failure = error }
        }
        if let failure {
            let path = container.persistentStoreDescriptions.first?.url?.path ?? "?"
            FileHandle.standardError.write(Data("cannot open the store \(path): \(CommandLoop.message(for: failure))\n".utf8))
            exit(1)
        }
        return container
    }

    /// A store file, or a PostgreSQL schema when `place` is a `postgres://` URL.
    private static func description(forStoreAt place: String) -> NSPersistentStoreDescription {
        #if canImport(CoreDataPostgreSQL)
        if place.hasPrefix("postgres://") || place.hasPrefix("postgresql://"), let url = URL(string: place) {
            let description = NSPersistentStoreDescription(url: url)
            description.type = NSPostgreSQLStoreType
            return description
        }
        #endif
        return NSPersistentStoreDescription(url: URL(fileURLWithPath: place))
    }

    /// A file shipped in the program's resources, e.g. seed data.
    public static func resource(_ name: String, bundle: Bundle) -> URL? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        return bundle.url(forResource: parts[0], withExtension: parts.count > 1 ? parts[1] : nil)
    }
}
