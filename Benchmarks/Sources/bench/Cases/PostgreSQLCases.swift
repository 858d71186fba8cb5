#if POSTGRESQL_CASES
import CoreDataPostgreSQL
import PostgresNIO

/// The PostgreSQL store against postgres-nio used by hand (the floor), on the server of
/// `--postgres`. Both sides talk to the same server over TCP without TLS, in one connection
/// each, and read and write the same table (or one made `LIKE` it, indexes included).
/// postgres-nio runs through its async API; `blocking` hands its work to the cooperative pool.
extension BenchmarkCase {
    /// Inserting every team and saving, in one transaction, into an empty schema each repetition.
    nonisolated(unsafe) static let postgresInsert = BenchmarkCase(
        id: "pg-insert",
        title: "PostgreSQL: insert + save",
        explanation: "Creates every team and saves them into a new, empty PostgreSQL store; postgres-nio runs one transaction of a prepared INSERT per row (the same statements the store sends, parsed once), and, for scale, one INSERT of every row from arrays through `unnest`.",
        targets: [
            Target(statement: "PostgreSQL insert+save within 3x of postgres-nio", subject: "CoreData", base: "postgres-nio", limit: 3),
            // Issue 33's target: the one-statement insert is what a save sending a table's rows
            // at once can come near.
            Target(statement: "PostgreSQL insert+save within 3x of postgres-nio's unnest INSERT", subject: "CoreData", base: "postgres-nio unnest, one INSERT", limit: 3),
        ],
        needsPostgreSQL: true
    ) { env in
        let server = try env.postgresServer()
        let data = env.data
        let rows = env.rows
        // A store of ours made once, whose table postgres-nio's tables copy.
        let template = try server.makeSchema()
        _ = try CoreDataStack.container(at: server.storeURL(template), type: NSPostgreSQLStoreType)
        let entity = try server.integer("SELECT Z_ENT FROM \(template).Z_PRIMARYKEY WHERE Z_NAME = 'Team'")
        /// An empty copy of the template's table in a new schema, and a connection that sees it.
        func emptyTable() throws -> PostgresConnection {
            let schema = try server.makeSchema()
            try server.execute("CREATE TABLE \(schema).ZTEAM (LIKE \(template).ZTEAM INCLUDING ALL)")
            return try server.connect(schema: schema)
        }
        return [
            CoreDataVariants.insert(rows: rows, of: data) {
                try CoreDataStack.container(at: server.storeURL(try server.makeSchema()), type: NSPostgreSQLStoreType)
            },
            Variant(label: "postgres-nio", role: .postgresNIO) {
                let connection = try emptyTable()
                return try Stopwatch.milliseconds {
                    try blocking {
                        try await connection.query("BEGIN", logger: PostgresServer.logger)
                        for index in 0..<rows {
                            // The overload that returns the command tag traps in postgres-nio 1.33.2
                            // (PSQLRowStream.commandTag's precondition); draining the empty row
                            // sequence is the same exchange with the server.
                            for try await _ in try await connection.execute(InsertTeam(data, index: index, entity: entity), logger: PostgresServer.logger) {}
                        }
                        try await connection.query("COMMIT", logger: PostgresServer.logger)
                    }
                }
            },
            Variant(label: "postgres-nio unnest, one INSERT", role: .reference) {
                let connection = try emptyTable()
                return try Stopwatch.milliseconds {
                    try blocking {
                        let bindings = PostgresTeamSQL.arrayBindings(data, range: 0..<rows, entity: entity)
                        _ = try await connection.query(PostgresQuery(unsafeSQL: PostgresTeamSQL.insertArrays, binds: bindings), logger: PostgresServer.logger)
                    }
                }
            },
        ]
    }

    /// Every row as a fully materialised object, every attribute read.
    nonisolated(unsafe) static let postgresFetchObjects = BenchmarkCase(
        id: "pg-fetch-objects",
        title: "PostgreSQL: fetch all, materialised",
        explanation: "Fetches every team from the PostgreSQL store as a fully materialised object and reads all five attributes of each; postgres-nio decodes the same SELECT into Swift values.",
        targets: [Target(statement: "PostgreSQL materialised fetch within 1.3x of postgres-nio", subject: "CoreData", base: "postgres-nio", limit: 1.3)],
        needsPostgreSQL: true
    ) { env in
        let server = try env.postgresServer()
        let (container, schema) = try server.populatedStore(data: env.data, rows: env.rows)
        let connection = try server.connect(schema: schema)
        return [
            CoreDataVariants.fetchObjects(container),
            Variant(label: "postgres-nio", role: .postgresNIO) {
                try Stopwatch.milliseconds {
                    consume(try blocking {
                        var teams: [TeamValues] = []
                        let rows = try await connection.query(PostgresQuery(unsafeSQL: TeamSQL.selectAll), logger: PostgresServer.logger)
                        for try await (id, name, zone, wins, score, date) in rows.decode((Int64, String, String, Int64, Double, Double).self) {
                            teams.append(TeamValues(id: id, name: name, zone: zone, wins: Int32(truncatingIfNeeded: wins), score: score,
                                                    date: Date(timeIntervalSinceReferenceDate: date)))
                        }
                        var sum = 0.0
                        for team in teams { sum += checksum(name: team.name, zone: team.zone, wins: team.wins, score: team.score, date: team.date.timeIntervalSinceReferenceDate) }
                        return sum
                    })
                }
            },
        ]
    }

    /// COUNT with a predicate.
    nonisolated(unsafe) static let postgresCount = BenchmarkCase(
        id: "pg-count",
        title: "PostgreSQL: count with predicate",
        explanation: "Counts the teams matching `wins >= 500 AND zone != 'Zone 03'` in the PostgreSQL store with `count(for:)`; postgres-nio sends `SELECT COUNT(*) ... WHERE` with the two values bound.",
        targets: [Target(statement: "PostgreSQL count within 1.2x of postgres-nio", subject: "CoreData", base: "postgres-nio", limit: 1.2)],
        needsPostgreSQL: true
    ) { env in
        let server = try env.postgresServer()
        let (context, connection, schema) = try server.populatedPair(data: env.data, rows: env.rows)
        let expected = Int(try server.integer("SELECT COUNT(*) FROM \(schema).ZTEAM WHERE ZWINS >= \(TeamSQL.winsThreshold) AND ZZONE <> '\(TeamSQL.excludedZone)'"))
        func check(_ count: Int) throws {
            if count != expected { throw BenchError("count: \(count), expected \(expected)") }
        }
        return [
            CoreDataVariants.count(context, check: check),
            Variant(label: "postgres-nio", role: .postgresNIO) {
                var result = 0
                let elapsed = try Stopwatch.milliseconds {
                    result = try blocking {
                        let rows = try await connection.query(
                            "SELECT COUNT(*) FROM ZTEAM WHERE ZWINS >= \(Int64(TeamSQL.winsThreshold)) AND ZZONE <> \(TeamSQL.excludedZone)",
                            logger: PostgresServer.logger)
                        for try await count in rows.decode(Int64.self) { return Int(count) }
                        return 0
                    }
                }
                try check(result)
                return elapsed
            },
        ]
    }

    /// One attribute of every row set in the store, without loading objects.
    nonisolated(unsafe) static let postgresBatchUpdate = BenchmarkCase(
        id: "pg-batch-update",
        title: "PostgreSQL: batch update, one attribute",
        explanation: "Sets `wins` of every team in the PostgreSQL store with `NSBatchUpdateRequest` (status only); postgres-nio sends one `UPDATE ZTEAM SET ZWINS = $1, Z_OPT = Z_OPT + 1`. The table is vacuumed before each repetition, untimed, so that no repetition pays for the dead rows of the one before.",
        targets: [Target(statement: "PostgreSQL batch update within 1.2x of postgres-nio", subject: "CoreData", base: "postgres-nio", limit: 1.2)],
        needsPostgreSQL: true
    ) { env in
        let server = try env.postgresServer()
        let (context, connection, schema) = try server.populatedPair(data: env.data, rows: env.rows)
        var round: Int32 = 0
        func nextValue() throws -> Int32 {
            try server.execute("VACUUM \(schema).ZTEAM")
            round += 1
            return 1000 + round
        }
        return [
            Variant(label: "CoreData", role: .coreData) {
                let request = NSBatchUpdateRequest(entityName: "Team")
                request.propertiesToUpdate = ["wins": NSNumber(value: try nextValue())]
                request.resultType = .statusOnlyResultType
                return try Stopwatch.milliseconds { consume(try context.execute(request)) }
            },
            Variant(label: "postgres-nio", role: .postgresNIO) {
                let value = Int64(try nextValue())
                return try Stopwatch.milliseconds {
                    try blocking {
                        _ = try await connection.query("UPDATE ZTEAM SET ZWINS = \(value), Z_OPT = Z_OPT + 1", logger: PostgresServer.logger)
                    }
                }
            },
        ]
    }
}

extension CaseEnvironment {
    /// The server of `--postgres`; `run` refuses the pg-* cases without one before any starts.
    func postgresServer() throws -> PostgresServer {
        guard let postgres else { throw UsageError("the PostgreSQL cases need --postgres URL") }
        return postgres
    }
}
#endif
