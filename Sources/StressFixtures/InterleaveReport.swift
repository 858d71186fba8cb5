/// What one `CoreDataStress interleave` writer reports: the program writes it as JSON, the tests
/// read it back and check the writers' reports against the counters' final values.
public struct InterleaveReport: Codable, Sendable {
    public var writer: Int
    public var saves = 0
    /// Saves refused with 133020 (optimistic locking): another writer had changed a counter.
    public var conflicts = 0
    /// Saves that failed because the store's server could not be reached
    /// (`PostgreSQLErrorKeys.connectionLost`), e.g. during a server restart.
    public var unreachableSaves = 0
    /// Successful saves after the first unreachable one: work went on once the server was back.
    public var savesAfterUnreachable = 0
    /// Errors of any other kind, e.g. SQLITE_BUSY escaping the busy timeout.
    public var otherErrors: [String] = []
    /// Reads after a refresh that showed less than this writer had already committed.
    public var staleReadsAfterRefresh = 0
    /// Counter name → values this writer's successful saves wrote.
    public var committed: [String: [Int64]] = [:]
    /// Counter name → values of unreachable saves. A commit whose answer was lost on the way
    /// back may still have happened, so these may appear in the final counts; nothing else may.
    public var unconfirmed: [String: [Int64]] = [:]
    /// Counter name → value this writer read after every writer stopped.
    public var finalView: [String: Int64] = [:]

    public init(writer: Int) { self.writer = writer }
}
