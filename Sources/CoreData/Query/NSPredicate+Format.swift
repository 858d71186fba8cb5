/// Format-string predicates on Linux, where Foundation declares `NSPredicate` but leaves its
/// format initializers unavailable.
///
/// A predicate made here is a Foundation block predicate whose closure carries the parsed tree
/// (or the parse error). `evaluate(with:)` runs the in-memory evaluator; `parsedTree()` gets the
/// tree back by handing the closure a `PredicateTreeProbe`. The tree rides along inside
/// Foundation's own `NSCompoundPredicate`s and copies, so no registry is needed.
extension NSPredicate {
    /// A predicate parsed from Apple's format-string syntax, with `%@`, `%K`, `%d` and other
    /// arguments substituted.
    ///
    /// For example:
    /// ```swift
    /// let adults = NSPredicate(format: "age >= %d AND name BEGINSWITH[cd] %@", 18, "a")
    /// ```
    /// Malformed text does not trap: the predicate carries the error, and the fetch that uses
    /// it throws. Call `NSPredicate.parse(format:_:)` to find out at once.
    public convenience init(format predicateFormat: String, _ args: Any...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// The same as `init(format:_:)` with the arguments in an array.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        let content: Result<PredicateNode, NSError>
        do {
            content = .success(try PredicateParser.parse(predicateFormat, arguments: arguments ?? []))
        } catch {
            content = .failure(error as NSError)
        }
        self.init(carrying: content)
    }

    /// Parses `format` now, throwing a 2048 (`NSFormattingError`) error naming the problem and
    /// its position.
    ///
    /// For example:
    /// ```swift
    /// let predicate = try NSPredicate.parse(format: userText)
    /// ```
    public static func parse(format: String, _ args: Any...) throws -> NSPredicate {
        try parse(format: format, argumentArray: args)
    }

    /// The same as `parse(format:_:)` with the arguments in an array.
    public static func parse(format: String, argumentArray arguments: [Any]?) throws -> NSPredicate {
        NSPredicate(tree: try PredicateParser.parse(format, arguments: arguments ?? []))
    }

    convenience init(tree: PredicateNode) {
        self.init(carrying: .success(tree))
    }

    /// A block predicate holding a parsed tree, or the error that stopped parsing (thrown by
    /// the fetch that uses it).
    convenience init(carrying content: Result<PredicateNode, NSError>) {
        let evaluator: PredicateEvaluator? = try? PredicateEvaluator(content.get())
        self.init(block: { object, bindings in
            if let probe = object as? PredicateTreeProbe {
                probe.content = content
                return false
            }
            guard let evaluator else { return false }
            return (try? evaluator.evaluate(object, variables: bindings ?? [:])) ?? false
        })
    }

    /// The tree this predicate stands for; throws the parse error of a malformed format string.
    ///
    /// Works for our predicates, Foundation's `NSPredicate(value:)` and `NSCompoundPredicate`s
    /// of either. Any other block predicate becomes an opaque node the in-memory evaluator can
    /// still run but SQL cannot (its closure is called once with a probe object, so it must not
    /// force-cast its argument).
    func parsedTree() throws -> PredicateNode {
        if let compound = self as? NSCompoundPredicate {
            let terms = try compound.subpredicates.map { try $0.parsedTree() }
            switch compound.compoundPredicateType {
            case .and: return terms.count == 1 ? terms[0] : .and(terms)
            case .or: return terms.count == 1 ? terms[0] : .or(terms)
            case .not: return .not(terms.count == 1 ? terms[0] : .and(terms))
            @unknown default: throw PredicateError.semantic("unknown compound predicate type")
            }
        }
        if isEqual(NSPredicate(value: true)) { return .constant(true) }
        if isEqual(NSPredicate(value: false)) { return .constant(false) }
        let probe = PredicateTreeProbe()
        _ = evaluate(with: probe)
        if let content = probe.content { return try content.get() }
        return .block(OpaqueValue(self))
    }

    /// The predicate as a canonical format string that parses back to the same predicate.
    ///
    /// Foundation's `predicateFormat` cannot be overridden from here (it prints
    /// `BLOCKPREDICATE` for ours); use this instead. A malformed predicate prints its text.
    public var canonicalFormat: String {
        do {
            return PredicateFormatter.format(try parsedTree())
        } catch {
            return ((error as NSError).userInfo[PredicateErrorFormatKey] as? String) ?? "<invalid predicate>"
        }
    }

    /// A copy with each `$NAME` replaced by `variables["NAME"]` (variables not given stay, and
    /// a fetch with them throws). Foundation leaves this unavailable on Linux.
    ///
    /// For example:
    /// ```swift
    /// let template = NSPredicate(format: "name == $NAME")
    /// let bob = template.withSubstitutionVariables(["NAME": "Bob"])
    /// ```
    public func withSubstitutionVariables(_ variables: [String: Any]) -> NSPredicate {
        do {
            return NSPredicate(tree: try PredicateSubstitution.substitute(parsedTree(), variables))
        } catch {
            return NSPredicate(carrying: .failure(error as NSError))
        }
    }
}

/// Handed to our block predicates so they reveal their tree instead of evaluating.
final class PredicateTreeProbe: @unchecked Sendable {
    var content: Result<PredicateNode, NSError>?
}
