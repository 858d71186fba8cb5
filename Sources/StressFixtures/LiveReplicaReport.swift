/// What one `CoreDataStress live-replica` process reports: when each transaction reached its
/// controller, and the controller's final rows, for the test to compare across processes.
public struct LiveReplicaReport: Codable, Sendable {
    /// A controller section: its name and its items' serials, in the controller's order.
    public struct Section: Codable, Equatable, Sendable {
        public var name: String
        public var serials: [Int64]

        public init(name: String, serials: [Int64]) {
            self.name = name
            self.serials = serials
        }
    }

    public var replica: Int
    /// Transaction author → when (seconds since 1970) the controller's `controllerDidChangeContent`
    /// ran for that transaction. Every save has an author of its own.
    public var deliveries: [String: Double] = [:]
    /// Authors of transactions whose merge left the controller without a report.
    public var silentTransactions: [String] = []
    /// Batches of reports that, applied as a table view applies them, did not give the
    /// controller's sections.
    public var replayMismatches: [String] = []
    /// The controller's sections after the last merge, and what a fresh fetch returned then.
    public var controllerSections: [Section] = []
    public var fetchedSections: [Section] = []

    public init(replica: Int) { self.replica = replica }

    /// The author of save `number` of `replica`.
    public static func author(replica: Int, save number: Int) -> String { "replica-\(replica)-save-\(number)" }
}
