import Foundation

/// A model's identity across contexts and processes: its managed object ID's URI, with the
/// entity and store it names.
///
/// It is temporary (and changes) until the model's first save, as on Apple platforms.
public struct PersistentIdentifier: Hashable, Comparable, Codable, Sendable {
    /// The name of the model's entity.
    public let entityName: String
    /// The identifier of the store that holds the model; nil until it is saved.
    public let storeIdentifier: String?
    let uri: URL
    /// The object ID this identifier was made from, when made in this process.
    let objectID: NSManagedObjectID?

    init(_ objectID: NSManagedObjectID) {
        entityName = objectID.entity.name ?? ""
        storeIdentifier = objectID.persistentStore?.identifier
        uri = objectID.uriRepresentation()
        self.objectID = objectID
    }

    init(unattachedEntityName entityName: String, id: UUID) {
        self.entityName = entityName
        storeIdentifier = nil
        uri = URL(string: "x-swiftdata://unattached/\(entityName)/\(id.uuidString)")!
        objectID = nil
    }

    private enum CodingKeys: String, CodingKey { case entityName, storeIdentifier, uri }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entityName = try container.decode(String.self, forKey: .entityName)
        storeIdentifier = try container.decodeIfPresent(String.self, forKey: .storeIdentifier)
        uri = try container.decode(URL.self, forKey: .uri)
        objectID = nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entityName, forKey: .entityName)
        try container.encodeIfPresent(storeIdentifier, forKey: .storeIdentifier)
        try container.encode(uri, forKey: .uri)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.uri == rhs.uri }

    public func hash(into hasher: inout Hasher) { hasher.combine(uri) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.uri.absoluteString < rhs.uri.absoluteString }
}
