/// A bookmark in persistent history: for each store, the number of the last transaction seen.
///
/// Keep the token of the last transaction you merged (archive it with `NSKeyedArchiver` or
/// `JSONEncoder`) and ask for the history after it next time:
/// ```swift
/// let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// ```
/// Apple's token is opaque; ours holds the store identifiers and transaction numbers, compares
/// them (`<` holds when no store's number is greater and the tokens differ, so tokens of one
/// store are totally ordered) and archives them under one key, `storeTokens`.
public final class NSPersistentHistoryToken: NSObject, NSSecureCoding, NSCopying, Codable, Comparable, @unchecked Sendable {
    /// The transaction number of each store the token covers, by store identifier.
    let storeTokens: [String: Int64]

    init(storeTokens: [String: Int64]) {
        self.storeTokens = storeTokens
        super.init()
    }

    /// Always true: a token decodes only its own key and value types.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the token under the single key `storeTokens`.
    public func encode(with coder: NSCoder) {
        coder.encode(storeTokens.mapValues { NSNumber(value: $0) } as NSDictionary, forKey: "storeTokens")
    }

    /// Reads a token archived by `encode(with:)`; nil when the archive holds anything else.
    public required init?(coder: NSCoder) {
        guard let tokens = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self], forKey: "storeTokens") as? NSDictionary else { return nil }
        var storeTokens: [String: Int64] = [:]
        for (key, value) in tokens {
            guard let key = key as? String, let number = value as? NSNumber else { return nil }
            storeTokens[key] = number.int64Value
        }
        self.storeTokens = storeTokens
        super.init()
    }

    /// The token itself: tokens are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// True for a token with the same transaction number in the same stores.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? NSPersistentHistoryToken)?.storeTokens == storeTokens
    }

    /// A hash of the store identifiers and their transaction numbers.
    public override var hash: Int { storeTokens.hashValue }

    /// Each store's identifier and transaction number, for logs.
    public override var description: String {
        "<NSPersistentHistoryToken \(storeTokens.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))>"
    }

    /// Equality as `isEqual(_:)` has it.
    public static func == (lhs: NSPersistentHistoryToken, rhs: NSPersistentHistoryToken) -> Bool {
        lhs.isEqual(rhs)
    }

    /// A store missing from a token counts as "nothing seen yet" there.
    public static func < (lhs: NSPersistentHistoryToken, rhs: NSPersistentHistoryToken) -> Bool {
        let stores = Set(lhs.storeTokens.keys).union(rhs.storeTokens.keys)
        return lhs != rhs && stores.allSatisfy { (lhs.storeTokens[$0] ?? 0) <= (rhs.storeTokens[$0] ?? 0) }
    }

    // Codable: the same single key as the keyed archive.
    private enum CodingKeys: String, CodingKey { case storeTokens }

    /// Decodes a token written by `encode(to:)`.
    public convenience init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(storeTokens: try container.decode([String: Int64].self, forKey: .storeTokens))
    }

    /// Encodes the transaction number of each store under `storeTokens`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeTokens, forKey: .storeTokens)
    }
}
