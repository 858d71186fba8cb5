#if POSTGRESQL_CASES
import PostgresNIO

/// The bulk insert of the pg-* cases' postgres-nio variants and of their set-up, on the table our PostgreSQL store creates
/// for Team (Apple's layout with PostgreSQL's types: BIGINT keys and integers, DOUBLE PRECISION
/// scores and dates, TEXT strings; PostgreSQL folds the unquoted names to lower case).
enum PostgresTeamSQL {
    /// Many teams in one statement: each column travels as one array and `unnest` turns the
    /// arrays back into rows, the usual bulk insert through postgres-nio (one round trip, one
    /// statement to plan, instead of one of each per row).
    static let insertArrays = """
        INSERT INTO ZTEAM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZZONE, ZWINS, ZSCORE, ZDATE)
        SELECT key, $1, 1, name, zone, wins, score, date
        FROM unnest($2::int8[], $3::text[], $4::text[], $5::int8[], $6::float8[], $7::float8[]) AS t(key, name, zone, wins, score, date)
        """

    /// `insertArrays`' values for teams `range` of `data`, keys from 1 as in the other cases.
    static func arrayBindings(_ data: TeamData, range: Range<Int>, entity: Int64) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(entity)
        bindings.append(range.map { Int64($0 + 1) })
        bindings.append(Array(data.names[range]))
        bindings.append(range.map { data.zone($0) })
        bindings.append(range.map { Int64(data.wins[$0]) })
        bindings.append(Array(data.scores[range]))
        bindings.append(Array(data.dates[range]))
        return bindings
    }
}

/// One team's INSERT as a postgres-nio prepared statement: parsed and planned by the server
/// once per connection, then only bound and executed, as the C floor's prepared statement is.
struct InsertTeam: PostgresPreparedStatement {
    static let sql = "INSERT INTO ZTEAM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZZONE, ZWINS, ZSCORE, ZDATE) VALUES ($1, $2, 1, $3, $4, $5, $6, $7)"
    typealias Row = ()

    let key: Int64
    let entity: Int64
    let name: String
    let zone: String
    let wins: Int64
    let score: Double
    let date: Double

    init(_ data: TeamData, index: Int, entity: Int64) {
        key = Int64(index + 1)
        self.entity = entity
        name = data.names[index]
        zone = data.zone(index)
        wins = Int64(data.wins[index])
        score = data.scores[index]
        date = data.dates[index]
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(key)
        bindings.append(entity)
        bindings.append(name)
        bindings.append(zone)
        bindings.append(wins)
        bindings.append(score)
        bindings.append(date)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}
#endif
