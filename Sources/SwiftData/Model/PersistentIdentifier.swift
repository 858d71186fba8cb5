import Foundation

/// A model's identity across contexts and processes: its managed object ID, or that ID's URI
/// once encoded, with the entity and store it names.
///
/// It is temporary (and changes) until the model's first save, as on Apple platforms.
public struct PersistentIdentifier: Hashable, Comparable, Codable, Sendable {
    /// The name of the model's entity.
    public let entityName: String
    private let reference: Reference

    /// What names the model. An identifier made in this process keeps the object ID and makes
    /// its URI only when asked (encoding, ordering, description): a save makes an identifier
    /// for every model it touches, and a URI costs more than the rest of the identifier.
    private enum Reference: Sendable {
        case object(NSManagedObjectID)
        /// A decoded identifier, or an unattached model's.
        case uri(URL, storeIdentifier: String?)
    }

    init(_ objectID: NSManagedObjectID) {
        entityName = objectID.entity.name ?? ""
        reference = .object(objectID)
    }

    init(unattachedEntityName entityName: String, id: UUID) {
        self.entityName = entityName
        reference = .uri(URL(string: "x-swiftdata://unattached/\(entityName)/\(id.uuidString)")!, storeIdentifier: nil)
    }

    /// The identifier of the store that holds the model; nil until it is saved.
    public var storeIdentifier: String? {
        switch reference {
        case .object(let objectID): objectID.persistentStore?.identifier
        case .uri(_, let storeIdentifier): storeIdentifier
        }
    }

    /// The object ID this identifier was made from, when made in this process.
    var objectID: NSManagedObjectID? {
        guard case .object(let objectID) = reference else { return nil }
        return objectID
    }

    var uri: URL {
        switch reference {
        case .object(let objectID): objectID.uriRepresentation()
        case .uri(let uri, _): uri
        }
    }
}

extension PersistentIdentifier {
    /// Two identifiers made from object IDs are equal when the IDs are; once either side is
    /// decoded, their URIs decide, as an ID's URI names the same object in every process.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.reference, rhs.reference) {
        case let (.object(left), .object(right)): left == right
        case let (.object(objectID), .uri(uri, _)), let (.uri(uri, _), .object(objectID)): objectID.uriRepresentation() == uri
        case let (.uri(left, _), .uri(right, _)): left == right
        }
    }

    /// Hashes the number that ends the object ID's URI, which a decoded identifier reads back
    /// from its URI, so that equal identifiers hash alike whichever way they were made.
    public func hash(into hasher: inout Hasher) {
        switch reference {
        case .object(let objectID):
            hasher.combine(objectID.uriKey)
        case .uri(let uri, _):
            if let key = NSManagedObjectID.uriKey(of: uri) { hasher.combine(key) } else { hasher.combine(uri) }
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.uri.absoluteString < rhs.uri.absoluteString }
}

extension PersistentIdentifier: CustomStringConvertible {
    public var description: String { "PersistentIdentifier(\(uri.absoluteString))" }
}

extension PersistentIdentifier {
    private enum CodingKeys: String, CodingKey { case entityName, storeIdentifier, uri }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entityName = try container.decode(String.self, forKey: .entityName)
        reference = .uri(
            try container.decode(URL.self, forKey: .uri),
            storeIdentifier: try container.decodeIfPresent(String.self, forKey: .storeIdentifier)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entityName, forKey: .entityName)
        try container.encodeIfPresent(storeIdentifier, forKey: .storeIdentifier)
        try container.encode(uri, forKey: .uri)
    }
}
