import Foundation
import GRDB

/// The Team record as GRDB's documentation writes records: Codable, with the column names of
/// the store's table (Apple's layout).
struct TeamRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = TeamSQL.table

    var id: Int64
    var entity: Int64 = 1
    var version: Int64 = 1
    var name: String
    var zone: String
    var wins: Int32
    var score: Double
    /// Seconds since 2001, as Core Data stores dates.
    var date: Double

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK", entity = "Z_ENT", version = "Z_OPT"
        case name = "ZNAME", zone = "ZZONE", wins = "ZWINS", score = "ZSCORE", date = "ZDATE"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let zone = Column(CodingKeys.zone)
        static let wins = Column(CodingKeys.wins)
        static let score = Column(CodingKeys.score)
        static let name = Column(CodingKeys.name)
    }
}

/// Read-only column selection for fetches (Z_ENT and Z_OPT are not read, as in the floor).
struct TeamReadRecord: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = TeamSQL.table
    nonisolated(unsafe) static let databaseSelection: [any SQLSelectable] = [
        Column("Z_PK"), Column("ZNAME"), Column("ZZONE"), Column("ZWINS"), Column("ZSCORE"), Column("ZDATE"),
    ]

    var id: Int64
    var name: String
    var zone: String
    var wins: Int32
    var score: Double
    var date: Double

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK", name = "ZNAME", zone = "ZZONE", wins = "ZWINS", score = "ZSCORE", date = "ZDATE"
    }
}

enum GRDBStack {
    /// A queue on `url` in WAL mode with synchronous=NORMAL, like the other two.
    static func queue(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
        }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }
}
