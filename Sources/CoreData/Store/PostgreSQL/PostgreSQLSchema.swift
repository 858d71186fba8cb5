/// The tables, indexes and functions of a PostgreSQL store: Apple's SQLite layout (DESIGN.md
/// §2) with PostgreSQL's column types, in the store's own schema.
enum PostgreSQLSchema {
    /// Serialises creation of the same schema by processes opening it at once.
    static func creationLock(_ schema: String) -> (sql: String, bindings: [SQLValue]) {
        ("SELECT pg_advisory_xact_lock(hashtext($1))", [.text("coredata." + schema)])
    }

    /// Whether the store's tables exist yet.
    static let existsQuery = "SELECT to_regclass('z_metadata') IS NOT NULL"

    /// Everything a new store needs, in order.
    static func createStatements(model: NSManagedObjectModel, layouts: [SQLTableLayout]) -> [String] {
        var statements: [String] = []
        for layout in layouts.sorted(by: { $0.table < $1.table }) {
            statements.append(layout.createStatement)
            statements += layout.indexStatements
        }
        for joinTable in SQLiteSchema.joinTables(in: model) {
            statements += [joinTable.createStatement(dialect: .postgreSQL), joinTable.indexStatement]
        }
        statements += uniqueIndexStatements(model: model)
        statements.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT BIGINT PRIMARY KEY, Z_NAME TEXT, Z_SUPER BIGINT, Z_MAX BIGINT)")
        statements.append("CREATE TABLE Z_METADATA (Z_VERSION BIGINT PRIMARY KEY, Z_UUID TEXT, Z_PLIST BYTEA)")
        return statements
    }

    /// A unique index per uniqueness constraint, so two machines saving the same key at once
    /// cannot both succeed (one save fails with 133021).
    static func uniqueIndexStatements(model: NSManagedObjectModel) -> [String] {
        model.entities.flatMap { entity in
            entity.uniquenessConstraints.enumerated().compactMap { number, constraint -> String? in
                let columns = constraint.compactMap { ($0 as? String).flatMap { entity.propertiesByName[$0] } }.map(SQLiteSchema.column(for:))
                guard !columns.isEmpty, columns.count == constraint.count else { return nil }
                let table = SQLiteSchema.table(for: entity)
                let entities = SQLiteSchema.entityNumbers(for: entity).map(String.init).joined(separator: ", ")
                return "CREATE UNIQUE INDEX \(table)_UNIQUE_\(entity.entityNumber)_\(number) ON \(table) (\(columns.joined(separator: ", "))) WHERE Z_ENT IN (\(entities))"
            }
        }
    }

    /// The functions compiled predicates call (`SQLDialect.postgreSQL`), with the meaning
    /// `StringMatching` gives them in memory: folding (case: ICU lower-casing, ß as ss; diacritics:
    /// combining marks removed after canonical decomposition), CONTAINS, BEGINSWITH, ENDSWITH,
    /// LIKE with `*` and `?`, MATCHES as a whole-string regular expression, and NSString's
    /// UTF-16 length. Replaced at every open, so a store always has this release's versions.
    static let functionStatements = [
        #"""
        CREATE OR REPLACE FUNCTION nspred_fold(subject TEXT, options BIGINT) RETURNS TEXT
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN options & 2 = 0 THEN cased
                ELSE normalize(regexp_replace(normalize(cased, NFD), '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]', '', 'g'), NFC) END
            FROM (SELECT CASE WHEN options & 1 = 0 THEN subject ELSE replace(lower(subject COLLATE "und-x-icu"), 'ß', 'ss') END AS cased) AS folded
        $$
        """#,
        #"""
        CREATE OR REPLACE FUNCTION nspred_like(pattern TEXT) RETURNS TEXT
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
        DECLARE
            result TEXT := '';
            character TEXT;
            position INT := 1;
        BEGIN
            WHILE position <= length(pattern) LOOP
                character := substr(pattern, position, 1);
                IF character = '\' AND position < length(pattern) THEN
                    position := position + 1;
                    character := substr(pattern, position, 1);
                    result := result || CASE WHEN character IN ('%', '_', '\') THEN '\' || character ELSE character END;
                ELSIF character = '*' THEN result := result || '%';
                ELSIF character = '?' THEN result := result || '_';
                ELSIF character IN ('%', '_', '\') THEN result := result || '\' || character;
                ELSE result := result || character;
                END IF;
                position := position + 1;
            END LOOP;
            RETURN result;
        END
        $$
        """#,
        #"""
        CREATE OR REPLACE FUNCTION nspred_string(code BIGINT, options BIGINT, subject TEXT, pattern TEXT) RETURNS BOOLEAN
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
        DECLARE
            folded_subject TEXT;
            folded_pattern TEXT;
            case_insensitive BOOLEAN := options & 1 <> 0;
        BEGIN
            IF subject IS NULL OR pattern IS NULL THEN RETURN NULL; END IF;
            IF code = 5 THEN
                folded_subject := nspred_fold(subject, options & 2);
                folded_pattern := nspred_fold(pattern, options & 2);
                -- ICU's leading (?i); PostgreSQL accepts embedded options only at the very start.
                IF starts_with(folded_pattern, '(?i)') THEN
                    case_insensitive := TRUE;
                    folded_pattern := substr(folded_pattern, 5);
                END IF;
                folded_pattern := '^(?:' || folded_pattern || ')$';
                IF case_insensitive THEN RETURN folded_subject ~* folded_pattern; END IF;
                RETURN folded_subject ~ folded_pattern;
            END IF;
            folded_subject := nspred_fold(subject, options & 3);
            folded_pattern := nspred_fold(pattern, options & 3);
            RETURN CASE code
                WHEN 1 THEN folded_pattern <> '' AND strpos(folded_subject, folded_pattern) > 0
                WHEN 2 THEN folded_pattern <> '' AND starts_with(folded_subject, folded_pattern)
                WHEN 3 THEN folded_pattern <> '' AND length(folded_pattern) <= length(folded_subject)
                    AND right(folded_subject, length(folded_pattern)) = folded_pattern
                WHEN 4 THEN folded_subject LIKE nspred_like(folded_pattern)
                ELSE FALSE END;
        END
        $$
        """#,
        #"""
        CREATE OR REPLACE FUNCTION nspred_length(subject TEXT) RETURNS BIGINT
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT length(subject) + length(regexp_replace(subject, '[^\U00010000-\U0010FFFF]', '', 'g'))
        $$
        """#,
    ]
}
