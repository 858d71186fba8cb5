import Foundation

/// Where and how a container keeps its models: a SQLite file (Apple's layout), or memory only.
///
/// For example:
/// ```swift
/// let configuration = ModelConfiguration(url: directory.appending(path: "Trips.store"))
/// ```
public struct ModelConfiguration: Hashable, Sendable {
    public let name: String
    public let schema: Schema?
    public let url: URL
    public let isStoredInMemoryOnly: Bool
    public let allowsSave: Bool

    public init(_ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true) {
        self.name = name ?? "default"
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        // In memory: SQLite's anonymous store, so constraints and queries behave as on disk.
        url = isStoredInMemoryOnly ? URL(fileURLWithPath: "/dev/null") : Self.defaultDirectory.appendingPathComponent("\(self.name).store")
    }

    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true) {
        self.name = name ?? "default"
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = false
        self.allowsSave = allowsSave
    }

    /// Application Support, as on Apple platforms (`~/.local/share` on Linux).
    static var defaultDirectory: URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.isStoredInMemoryOnly == rhs.isStoredInMemoryOnly && lhs.allowsSave == rhs.allowsSave
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
    }

    func storeDescription() -> NSPersistentStoreDescription {
        let description = NSPersistentStoreDescription(url: url)
        description.type = NSSQLiteStoreType
        description.isReadOnly = !allowsSave
        // SwiftData records persistent history, which `fetchHistory` reads.
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        return description
    }
}
