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

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(storeTokens.mapValues { NSNumber(value: $0) } as NSDictionary, forKey: "storeTokens")
    }

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

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? NSPersistentHistoryToken)?.storeTokens == storeTokens
    }

    public override var hash: Int { storeTokens.hashValue }

    public override var description: String {
        "<NSPersistentHistoryToken \(storeTokens.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))>"
    }

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

    public convenience init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(storeTokens: try container.decode([String: Int64].self, forKey: .storeTokens))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeTokens, forKey: .storeTokens)
    }
}
