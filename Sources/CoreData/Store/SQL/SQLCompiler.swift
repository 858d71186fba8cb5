/// Compiles predicate trees, sort descriptors and expressions for one root entity into SQL over
/// Apple's table layout (`SQLiteSchema`), with the semantics the in-memory evaluator has.
///
/// One compiler serves one statement: it collects the LEFT JOINs that to-one key paths need and
/// the bound values, then the statement's builder (`SQLFetchPlan`, `BatchUpdateStatement`,
/// the dictionary fetch) assembles them. The main table's alias is `t0`.
///
/// For example:
/// ```swift
/// let compiler = SQLCompiler(entity: person)
/// let condition = try compiler.whereClause(for: tree)          // "+t0.Z_ENT IN (3) AND ..."
/// let sql = "SELECT t0.Z_PK FROM \(compiler.fromClause) WHERE \(condition)"
/// ```
///
/// Every predicate compiles to an expression that is 0 or 1, never NULL, so `NOT` means what it
/// means in memory (`NOT (x == 5)` matches rows where x is NULL).
final class SQLCompiler {
    let entity: NSEntityDescription
    let includesSubentities: Bool
    let dialect: SQLDialect
    private(set) var bindings: [SQLValue] = []
    private var scopes: [Scope] = []
    private var aliasCount = 0

    /// Where a key path starts: the main row, or the member row of an ANY/SUBQUERY.
    final class Scope {
        let alias: String
        let entity: NSEntityDescription
        var joins: [String] = []
        var joinAliases: [String: String] = [:]
        /// SUBQUERY variables visible here, by name.
        var variables: [String: (alias: String, entity: NSEntityDescription)]

        init(alias: String, entity: NSEntityDescription, variables: [String: (alias: String, entity: NSEntityDescription)]) {
            self.alias = alias
            self.entity = entity
            self.variables = variables
        }
    }

    init(entity: NSEntityDescription, includesSubentities: Bool = true, dialect: SQLDialect = .sqlite) {
        self.entity = entity
        self.includesSubentities = includesSubentities
        self.dialect = dialect
        scopes = [Scope(alias: "t0", entity: entity, variables: [:])]
    }

    var rootScope: Scope { scopes[0] }

    /// `ZTABLE t0 LEFT JOIN ...`.
    var fromClause: String {
        ([SQLiteSchema.table(for: entity) + " t0"] + rootScope.joins).joined(separator: " ")
    }

    /// `t0.Z_ENT IN (...)`: the entity (and subentities) the statement is about, or nil when that
    /// is every entity the table holds. Entity numbers come from the model, never from callers,
    /// so they are written inline.
    ///
    /// A filter that selects every row would still be evaluated on every row (and, unless kept
    /// out of the index choice, make SQLite read the rows through the Z_ENT index), so it is
    /// left out, as Apple's store leaves it out for an entity that shares its table with nobody.
    var entityFilter: String? {
        let numbers = includesSubentities ? SQLiteSchema.entityNumbers(for: entity) : [entity.entityNumber]
        guard Set(numbers) != Set(SQLiteSchema.entityNumbers(for: entity.rootEntity)) else { return nil }
        return "t0.\(SQLiteSchema.entityColumn) IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }

    /// The WHERE condition: entity filter, then the predicate (0/1, NULL-free).
    func whereClause(for predicate: PredicateNode?) throws -> String {
        let parts = [entityFilter, try predicate.map { try compile($0, in: rootScope) }].compactMap { $0 }
        return parts.isEmpty ? dialect.literal(true) : parts.joined(separator: " AND ")
    }

    /// Appends a value and returns its numbered placeholder.
    func bind(_ value: SQLValue) -> String {
        bindings.append(value)
        return dialect.placeholder(bindings.count)
    }

    func makeAlias(_ prefix: String) -> String {
        aliasCount += 1
        return "\(prefix)\(aliasCount)"
    }

    // MARK: Key paths

    /// What a key path, variable or SELF denotes in SQL.
    enum Resolved {
        case scalar(SQLOperand)
        /// A to-many step from `alias` (a row of `relationship.entity`), then `rest` relative to
        /// each member.
        case toMany(scope: Scope, alias: String, relationship: NSRelationshipDescription, rest: [String])
    }

    func resolve(base: ExpressionNode, components: [String], in scope: Scope) throws -> Resolved {
        var (owner, alias, entity): (Scope, String, NSEntityDescription)
        switch base {
        case .evaluatedObject:
            (owner, alias, entity) = (rootScope, rootScope.alias, rootScope.entity)
        case .variable(let name):
            guard let bound = scope.variables[name] else {
                throw PredicateError.semantic("variable $\(name) has no value")
            }
            owner = scopes.first { $0.alias == bound.alias } ?? scope
            (alias, entity) = (bound.alias, bound.entity)
        default:
            throw PredicateError.semantic("a key path must start at SELF or a variable in a fetch")
        }
        if components.isEmpty {
            return .scalar(SQLOperand(sql: "\(alias).\(SQLiteSchema.primaryKey)", kind: .object(entity)))
        }
        var index = 0
        while index < components.count {
            let key = components[index]
            let isLast = index == components.count - 1
            // A subentity's property lives in the table its root shares with it. Swift's
            // `($0 as? Car)?.doors` on a fetch of Vehicle reaches it behind a test of the row's
            // entity; rows of other entities hold NULL there.
            if entity.propertiesByName[key] == nil, !(key == "entity" && isLast), let declaring = Self.subentity(of: entity, declaring: key) {
                entity = declaring
            }
            if var attribute = entity.attributesByName[key] {
                var column = "\(alias).\(SQLiteSchema.column(for: attribute))"
                // `address.city`: a composite's element has a column of its own.
                if let composite = attribute as? NSCompositeAttributeDescription {
                    var path: [String] = []
                    while let element = (attribute as? NSCompositeAttributeDescription)?.element(named: index + 1 < components.count ? components[index + 1] : "") {
                        path.append(element.name)
                        attribute = element
                        index += 1
                    }
                    guard !path.isEmpty, !(attribute is NSCompositeAttributeDescription) else {
                        throw PredicateError.semantic("keypath \(components.joined(separator: ".")): a composite attribute is compared by its elements in a fetch, e.g. \(key).\(composite.leaves.first?.path.joined(separator: ".") ?? "element")")
                    }
                    column = "\(alias).\(SQLiteSchema.column(for: composite, element: path))"
                }
                // Decimals are stored as exact text; they compare and sort as numbers.
                if attribute.attributeType == .decimalAttributeType { column = dialect.real(column) }
                let kind = try SQLOperand.Kind(attribute: attribute)
                if index == components.count - 1 { return .scalar(SQLOperand(sql: column, kind: kind)) }
                if components[index + 1] == "length", index + 2 == components.count, kind == .string {
                    return .scalar(SQLOperand(sql: "NSPRED_LENGTH(\(column))", kind: .number))
                }
                throw PredicateError.semantic("keypath \(components.joined(separator: ".")): \(key) is not a relationship")
            }
            if key == "entity", isLast, entity.propertiesByName[key] == nil {
                // NSManagedObject's own `entity` key: the row's entity number.
                return .scalar(SQLOperand(sql: "\(alias).\(SQLiteSchema.entityColumn)", kind: .entity))
            }
            guard let relationship = entity.relationshipsByName[key], let destination = relationship.destinationEntity else {
                throw PredicateError.semantic("keypath \(components.joined(separator: ".")) not found in entity \(entity.name ?? "?")")
            }
            if relationship.isToMany {
                return .toMany(scope: owner, alias: alias, relationship: relationship, rest: Array(components[(index + 1)...]))
            }
            let column = "\(alias).\(SQLiteSchema.column(for: relationship))"
            if isLast { return .scalar(SQLOperand(sql: column, kind: .object(destination))) }
            alias = join(from: alias, column: column, relationship: relationship, in: owner)
            entity = destination
            index += 1
        }
        return .scalar(SQLOperand(sql: "\(alias).\(SQLiteSchema.primaryKey)", kind: .object(entity)))
    }

    /// The first subentity of `entity`, at any depth, with a property named `key`.
    private static func subentity(of entity: NSEntityDescription, declaring key: String) -> NSEntityDescription? {
        for subentity in entity.subentities {
            if subentity.propertiesByName[key] != nil { return subentity }
            if let deeper = self.subentity(of: subentity, declaring: key) { return deeper }
        }
        return nil
    }

    /// LEFT JOINs the destination of a to-one relationship once per source alias.
    private func join(from alias: String, column: String, relationship: NSRelationshipDescription, in scope: Scope) -> String {
        let key = "\(alias).\(relationship.name)"
        if let existing = scope.joinAliases[key] { return existing }
        let joined = makeAlias("j")
        let table = SQLiteSchema.table(for: relationship.destinationEntity!)
        scope.joins.append("LEFT JOIN \(table) \(joined) ON \(joined).\(SQLiteSchema.primaryKey) = \(column)")
        scope.joinAliases[key] = joined
        return joined
    }

    /// A correlated subquery over the members of a to-many relationship: `body` compiles what
    /// to ask of each member (in a new scope), and `select` is what the subquery returns.
    func membersSubquery(of relationship: NSRelationshipDescription, from alias: String, in scope: Scope,
                         variable: String? = nil, select: String,
                         body: (Scope) throws -> (condition: String?, selected: String?)) throws -> String {
        guard let destination = relationship.destinationEntity else {
            throw PredicateError.semantic("relationship \(relationship.name) has no destination")
        }
        let member = makeAlias("m")
        var variables = scope.variables
        if let variable { variables[variable] = (member, destination) }
        let memberScope = Scope(alias: member, entity: destination, variables: variables)
        scopes.append(memberScope)
        let (condition, selected) = try body(memberScope)
        let memberTable = SQLiteSchema.table(for: destination)
        let entities = SQLiteSchema.entityNumbers(for: destination).map(String.init).joined(separator: ", ")
        var from: String
        var conditions: [String]
        switch SQLiteSchema.storage(of: relationship) {
        case .inverseForeignKey(_, let column, _):
            from = "\(memberTable) \(member)"
            conditions = ["\(member).\(column) = \(alias).\(SQLiteSchema.primaryKey)"]
        case .joinTable(let table, let sourceColumn, let destinationColumn, _):
            let link = makeAlias("l")
            from = "\(table) \(link) JOIN \(memberTable) \(member) ON \(member).\(SQLiteSchema.primaryKey) = \(link).\(destinationColumn)"
            conditions = ["\(link).\(sourceColumn) = \(alias).\(SQLiteSchema.primaryKey)"]
        }
        conditions.append("\(member).\(SQLiteSchema.entityColumn) IN (\(entities))")
        if let condition { conditions.append(condition) }
        if !memberScope.joins.isEmpty { from += " " + memberScope.joins.joined(separator: " ") }
        let selection = selected.map { select.replacingOccurrences(of: "{}", with: $0) } ?? select
        return "(SELECT \(selection) FROM \(from) WHERE \(conditions.joined(separator: " AND ")))"
    }
}

/// A compiled scalar expression and the kind of value it yields, which decides how it may be
/// compared (see `ValueComparison`).
struct SQLOperand {
    enum Kind: Equatable {
        case null, number, string, date, data, uuid, url
        /// A row of (a subentity of) this entity, as its primary key.
        case object(NSEntityDescription)
        /// An entity, as its number in the Z_ENT column (`entity == %@`).
        case entity

        init(attribute: NSAttributeDescription) throws {
            switch attribute.attributeType {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
                 .doubleAttributeType, .floatAttributeType, .decimalAttributeType: self = .number
            case .stringAttributeType: self = .string
            case .dateAttributeType: self = .date
            case .binaryDataAttributeType: self = .data
            case .UUIDAttributeType: self = .uuid
            case .URIAttributeType: self = .url
            default:
                throw PredicateError.semantic("attribute \(attribute.name) cannot be used in a fetch predicate or sort")
            }
        }

        static func == (lhs: Kind, rhs: Kind) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null), (.number, .number), (.string, .string), (.date, .date), (.data, .data), (.uuid, .uuid), (.url, .url),
                 (.entity, .entity): true
            case (.object(let left), .object(let right)): left.rootEntity.name == right.rootEntity.name
            default: false
            }
        }
    }

    var sql: String
    var kind: Kind
    /// A bound constant (its SQL is a placeholder), so NULL checks on it can be decided now.
    var constant: ConstantValue?
}
