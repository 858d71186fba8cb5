import Foundation

/// A saved transaction as history reports it.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    associatedtype TokenType: HistoryToken
    var changes: [HistoryChange] { get }
    var token: TokenType { get }
    var transactionIdentifier: Int64 { get }
}

/// Where history was read up to: fetch the transactions after it next time.
public protocol HistoryToken: Hashable, Comparable, Codable, Sendable {}

/// A point in the stores' history (Core Data's persistent history token).
public struct DefaultHistoryToken: HistoryToken {
    let token: NSPersistentHistoryToken

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.token < rhs.token }

    public init(from decoder: any Decoder) throws {
        token = try NSPersistentHistoryToken(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try token.encode(to: encoder)
    }

    init(_ token: NSPersistentHistoryToken) { self.token = token }
}

/// One saved transaction: who saved what, and when.
public struct DefaultHistoryTransaction: HistoryTransaction, @unchecked Sendable {
    public let changes: [HistoryChange]
    public let token: DefaultHistoryToken
    public let transactionIdentifier: Int64
    public let author: String?
    public let bundleIdentifier: String
    public let processIdentifier: String
    public let storeIdentifier: String
    public let timestamp: Date

    public var id: Int64 { transactionIdentifier }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.token == rhs.token }
    public func hash(into hasher: inout Hasher) { hasher.combine(token) }
}

/// One change of a transaction.
public enum HistoryChange: @unchecked Sendable {
    case insert(any HistoryInsert)
    case update(any HistoryUpdate)
    case delete(any HistoryDelete)
}

public protocol HistoryInsert: Sendable {
    var changedPersistentIdentifier: PersistentIdentifier { get }
    var changeIdentifier: Int64 { get }
    var transactionIdentifier: Int64 { get }
}

public protocol HistoryUpdate: Sendable {
    var changedPersistentIdentifier: PersistentIdentifier { get }
    var changeIdentifier: Int64 { get }
    var transactionIdentifier: Int64 { get }
}

public protocol HistoryDelete: Sendable {
    var changedPersistentIdentifier: PersistentIdentifier { get }
    var changeIdentifier: Int64 { get }
    var transactionIdentifier: Int64 { get }
}

/// A model inserted in a transaction.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert {
    public let changedPersistentIdentifier: PersistentIdentifier
    public let changeIdentifier: Int64
    public let transactionIdentifier: Int64
}

/// A model updated in a transaction, with the attributes that changed.
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate, @unchecked Sendable {
    public let changedPersistentIdentifier: PersistentIdentifier
    public let changeIdentifier: Int64
    public let transactionIdentifier: Int64
    public let updatedAttributes: [PartialKeyPath<Model>]
}

/// A model deleted in a transaction, with the values its attributes marked
/// `.preserveValueOnDeletion` had.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete, @unchecked Sendable {
    public let changedPersistentIdentifier: PersistentIdentifier
    public let changeIdentifier: Int64
    public let transactionIdentifier: Int64
    public let tombstone: HistoryTombstone<Model>
}

/// The preserved values of a deleted model, by key path.
public struct HistoryTombstone<Model: PersistentModel>: @unchecked Sendable {
    let values: [String: Any]

    public subscript<Value>(keyPath: KeyPath<Model, Value>) -> Any? {
        FetchDescriptor<Model>.name(keyPath).flatMap { values[$0] }
    }
}

/// Which transactions to read: those a predicate keeps (evaluated in memory over the
/// transactions Core Data returns), in order, up to a limit.
public struct HistoryDescriptor<T: HistoryTransaction>: @unchecked Sendable {
    public var predicate: Predicate<T>?
    public var sortBy: [SortDescriptor<T>]
    public var fetchLimit: Int?

    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
