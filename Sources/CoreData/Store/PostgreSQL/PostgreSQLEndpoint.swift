/// A PostgreSQL store's URL taken apart:
/// `postgres://user:password@host:port/database?schema=name&tls=off|prefer|require`.
///
/// The schema holds the store's tables (one store per schema; `public` when none is named),
/// so many stores can share one database.
package struct PostgreSQLEndpoint: Sendable, Equatable {
    package enum TLS: String, Sendable {
        case off, prefer, require
    }

    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    package var schema: String
    package var tls: TLS

    /// Parses `url`; throws a Cocoa error naming what is wrong.
    package init(url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "") else {
            throw Self.invalid(url, "it is not a postgres:// URL")
        }
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
        port = components.port ?? 5432
        user = components.user ?? "postgres"
        password = components.password
        let path = components.path.drop(while: { $0 == "/" })
        database = path.isEmpty ? user : String(path)
        let items = components.queryItems ?? []
        schema = items.first { $0.name == "schema" }?.value ?? "public"
        guard schema.range(of: "^[a-z_][a-z0-9_]{0,62}$", options: .regularExpression) != nil else {
            throw Self.invalid(url, "the schema name \"\(schema)\" must be lower-case letters, digits and underscores")
        }
        let tlsName = items.first { $0.name == "tls" || $0.name == "sslmode" }?.value ?? "off"
        guard let tls = TLS(rawValue: tlsName == "disable" ? "off" : tlsName) else {
            throw Self.invalid(url, "tls must be off, prefer or require, not \(tlsName)")
        }
        self.tls = tls
    }

    /// The channel `NOTIFY` announces this schema's commits on.
    var notificationChannel: String { "coredata_\(schema)" }

    private static func invalid(_ url: URL, _ reason: String) -> NSError {
        CoreDataError.make(NSPersistentStoreInvalidTypeError, "The PostgreSQL store URL \(url.absoluteString) is not usable: \(reason)",
                           [NSURLErrorKey: url])
    }
}
