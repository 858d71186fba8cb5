/// The key paths a predicate reads, so the controller can watch the relationships they cross.
///
/// Apple's controller re-evaluates a fetched object's predicate only when that object changes;
/// `team.zone == "Europe"` then misses a rename of the zone. Reading the key paths out of the
/// parsed tree lets a change to a related object re-evaluate the objects that reach it.
extension NSPredicate {
    /// Key paths from the evaluated object (`"bucket.name"`), collection operators cut off.
    /// Empty for block predicates, whose reads cannot be seen.
    var referencedKeyPaths: [String] {
        guard let tree = try? parsedTree() else { return [] }
        var paths: [String] = []
        Self.collect(tree, into: &paths)
        return paths
    }

    private static func collect(_ node: PredicateNode, into paths: inout [String]) {
        switch node {
        case .constant, .block:
            return
        case .and(let nodes), .or(let nodes):
            for node in nodes { collect(node, into: &paths) }
        case .not(let node):
            collect(node, into: &paths)
        case .comparison(let comparison):
            collect(comparison.lhs, into: &paths)
            collect(comparison.rhs, into: &paths)
        }
    }

    private static func collect(_ expression: ExpressionNode, into paths: inout [String]) {
        switch expression {
        case .keyPath(base: .evaluatedObject, let components):
            let plain = components.prefix { !$0.hasPrefix("@") }
            if !plain.isEmpty { paths.append(plain.joined(separator: ".")) }
        case .keyPath(let base, _):
            collect(base, into: &paths)
        case .aggregate(let members), .function(_, let members):
            for member in members { collect(member, into: &paths) }
        case .subquery(let collection, _, _):
            // The members' own conditions are read through the collection's relationship.
            collect(collection, into: &paths)
        case .constant, .evaluatedObject, .variable, .fetch:
            return
        }
    }
}
