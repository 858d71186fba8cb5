import Foundation

/// The benchmark's data set: `count` teams with deterministic, evenly spread values, generated
/// once so that no variant pays for making its input.
///
/// Zones are spread by a multiplicative hash rather than by insertion order, so sections and
/// sorts do real work; 32 zones as in the World Cup example.
struct TeamData {
    static let zoneCount = 32
    static let zones = (0..<zoneCount).map { String(format: "Zone %02d", $0) }
    static let epoch = Date(timeIntervalSinceReferenceDate: 700_000_000)

    let names: [String]
    let zoneIndexes: [Int]
    let wins: [Int32]
    let scores: [Double]
    let dates: [Double]

    init(count: Int) {
        names = (0..<count).map { "Team \($0)" }
        zoneIndexes = (0..<count).map { Int((UInt64($0) &* 2_654_435_761) % UInt64(Self.zoneCount)) }
        wins = (0..<count).map { Int32((UInt64($0) &* 40_503) % 1000) }
        scores = (0..<count).map { Double((UInt64($0) &* 2_246_822_519) % 100_000) / 100 }
        dates = (0..<count).map { Self.epoch.timeIntervalSinceReferenceDate + Double($0) * 60 }
    }

    var count: Int { names.count }
    func zone(_ index: Int) -> String { Self.zones[zoneIndexes[index]] }
    func date(_ index: Int) -> Date { Date(timeIntervalSinceReferenceDate: dates[index]) }
}

/// A fully read row, what the C floor and GRDB's raw rows materialise.
struct TeamValues {
    var id: Int64
    var name: String
    var zone: String
    var wins: Int32
    var score: Double
    var date: Date
}

/// The queries every variant runs, in SQL on the store's own tables (Apple's layout: `ZTEAM`,
/// `Z_PK`, `ZNAME`...), so that all three read and write the same bytes.
enum TeamSQL {
    static let table = "ZTEAM"
    static let selectAll = "SELECT Z_PK, ZNAME, ZZONE, ZWINS, ZSCORE, ZDATE FROM ZTEAM"
    static let insert = "INSERT INTO ZTEAM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZZONE, ZWINS, ZSCORE, ZDATE) VALUES (?, ?, 1, ?, ?, ?, ?, ?)"
    /// The filtered, sorted fetch: about half the rows, by zone then best score first.
    static let winsThreshold: Int32 = 500
    static let excludedZone = "Zone 03"
    static let predicateFormat = "wins >= %d AND zone != %@"
    static let filteredSorted = "\(selectAll) WHERE ZWINS >= ? AND ZZONE != ? ORDER BY ZZONE, ZSCORE DESC"
    static let count = "SELECT COUNT(*) FROM ZTEAM WHERE ZWINS >= ? AND ZZONE != ?"
    static let sumByZone = "SELECT ZZONE, SUM(ZSCORE) FROM ZTEAM GROUP BY ZZONE"
    /// The controller's request: every team, sectioned by zone, by name within a zone.
    static let sectioned = "\(selectAll) ORDER BY ZZONE, ZNAME"
    static let sectionedIDs = "SELECT Z_PK FROM ZTEAM ORDER BY ZZONE, ZNAME"
}
