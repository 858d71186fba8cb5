/// Parses Apple's predicate format language (Predicate Programming Guide) into a
/// `PredicateNode`, consuming `%@`/`%K`/`%d`... arguments in order.
///
/// For example:
/// ```swift
/// let tree = try PredicateParser.parse("name BEGINSWITH[cd] %@ AND age > 3", arguments: ["a"])
/// ```
///
/// Recursive descent, one function per precedence level. Nesting is capped at
/// `maximumDepth` so hostile input gets an error rather than a stack overflow.
struct PredicateParser {
    static let maximumDepth = 200

    private let format: String
    private let tokens: [PredicateToken]
    private var index = 0
    private var arguments: [Any?]
    private var nextArgument = 0
    private var depth = 0
    /// Matching `)` for each `(`, and whether a parenthesised group holds a predicate (as in
    /// `(a > 1) OR b`) rather than an expression (as in `(a + 1) > b`); decided by lookahead so
    /// the parser never backtracks.
    private var closingParenthesis: [Int: Int] = [:]
    private var groupIsPredicate: [Int: Bool] = [:]

    static func parse(_ format: String, arguments: [Any?] = []) throws -> PredicateNode {
        var parser = try PredicateParser(format: format, arguments: arguments)
        let predicate = try parser.parsePredicate()
        guard parser.current.kind == .end else { throw parser.error("unexpected \(parser.describeCurrent())") }
        return predicate
    }

    /// Parses a lone expression, for `NSExpression(format:)`.
    static func parseExpression(_ format: String, arguments: [Any?] = []) throws -> ExpressionNode {
        var parser = try PredicateParser(format: format, arguments: arguments)
        let expression = try parser.parseExpression()
        guard parser.current.kind == .end else { throw parser.error("unexpected \(parser.describeCurrent())") }
        return expression
    }

    private init(format: String, arguments: [Any?]) throws {
        self.format = format
        self.tokens = try PredicateTokenizer.tokenize(format)
        self.arguments = arguments
        try matchParentheses()
    }

    // MARK: Token helpers

    private var current: PredicateToken { tokens[index] }

    private func error(_ message: String, at position: Int? = nil) -> NSError {
        PredicateError.syntax(message, at: position ?? current.position, in: format)
    }

    private func describeCurrent() -> String {
        switch current.kind {
        case .end: "end of string"
        case .identifier(let name): "'\(name)'"
        case .keyword(let word): "'\(word)'"
        case .collectionOperator(let name): "'\(name)'"
        case .string: "string"
        case .integer, .double: "number"
        case .variable(let name): "'$\(name)'"
        case .argument(let conversion): "'%\(conversion)'"
        case .symbol(let symbol): "'\(symbol)'"
        }
    }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }
    private func isKeyword(_ word: String) -> Bool { current.kind == .keyword(word) }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private mutating func accept(symbol: String) -> Bool {
        guard isSymbol(symbol) else { return false }
        advance()
        return true
    }

    private mutating func accept(keyword: String) -> Bool {
        guard isKeyword(keyword) else { return false }
        advance()
        return true
    }

    private mutating func expect(symbol: String, _ what: String) throws {
        guard accept(symbol: symbol) else { throw error("expected \(what), found \(describeCurrent())") }
    }

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func leave() { depth -= 1 }

    // MARK: Group classification

    private mutating func matchParentheses() throws {
        var open: [Int] = []
        for (position, token) in tokens.enumerated() {
            switch token.kind {
            case .symbol("("), .symbol("{"):
                open.append(position)
                if open.count > Self.maximumDepth {
                    throw PredicateError.syntax("nesting deeper than \(Self.maximumDepth) levels", at: token.position, in: format)
                }
            case .symbol(")"), .symbol("}"):
                if let opening = open.popLast() { closingParenthesis[opening] = position }
            default: break
            }
        }
    }

    private static let predicateKeywords: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH",
        "LIKE", "MATCHES", "BETWEEN", "TRUEPREDICATE", "FALSEPREDICATE",
    ]
    private static let predicateSymbols: Set<String> = ["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "&&", "||", "!"]

    /// Whether the group opening at token `opening` holds a predicate. Looks only at the group's
    /// own level, skipping nested groups, so classifying every group is linear overall.
    private mutating func isPredicateGroup(at opening: Int) -> Bool {
        if let known = groupIsPredicate[opening] { return known }
        let closing = closingParenthesis[opening] ?? tokens.count - 1
        var position = opening + 1
        var result = false
        if tokens[position].kind == .symbol("("), let inner = closingParenthesis[position], inner + 1 == closing {
            result = isPredicateGroup(at: position)
        } else {
            while position < closing {
                switch tokens[position].kind {
                case .keyword(let word) where Self.predicateKeywords.contains(word): result = true
                case .symbol(let symbol) where Self.predicateSymbols.contains(symbol): result = true
                case .symbol("("), .symbol("{"): position = closingParenthesis[position] ?? closing
                default: break
                }
                if result { break }
                position += 1
            }
        }
        groupIsPredicate[opening] = result
        return result
    }

    // MARK: Predicates

    private mutating func parsePredicate() throws -> PredicateNode {
        try enter()
        defer { leave() }
        var terms = [try parseConjunction()]
        while accept(keyword: "OR") || accept(symbol: "||") { terms.append(try parseConjunction()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseConjunction() throws -> PredicateNode {
        var terms = [try parseNegation()]
        while accept(keyword: "AND") || accept(symbol: "&&") { terms.append(try parseNegation()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNegation() throws -> PredicateNode {
        if accept(keyword: "NOT") || accept(symbol: "!") {
            try enter()
            defer { leave() }
            return .not(try parseNegation())
        }
        return try parsePrimaryPredicate()
    }

    private mutating func parsePrimaryPredicate() throws -> PredicateNode {
        if isSymbol("("), isPredicateGroup(at: index) {
            advance()
            let inner = try parsePredicate()
            try expect(symbol: ")", "')'")
            return inner
        }
        if accept(keyword: "TRUEPREDICATE") { return .constant(true) }
        if accept(keyword: "FALSEPREDICATE") { return .constant(false) }
        if accept(keyword: "ANY") || accept(keyword: "SOME") { return try parseComparison(modifier: .any) }
        if accept(keyword: "ALL") { return try parseComparison(modifier: .all) }
        if accept(keyword: "NONE") { return try parseComparison(modifier: .none) }
        return try parseComparison(modifier: .direct)
    }

    private mutating func parseComparison(modifier: ComparisonModifier) throws -> PredicateNode {
        let lhs = try parseExpression()
        let operatorPosition = current.position
        let op: ComparisonOperator
        switch current.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .keyword("IN"): op = .in
        case .keyword("CONTAINS"): op = .contains
        case .keyword("BEGINSWITH"): op = .beginsWith
        case .keyword("ENDSWITH"): op = .endsWith
        case .keyword("LIKE"): op = .like
        case .keyword("MATCHES"): op = .matches
        case .keyword("BETWEEN"): op = .between
        default: throw error("expected a comparison operator, found \(describeCurrent())")
        }
        advance()
        let options = try parseOptions()
        let rhs = try parseExpression()
        if op == .between {
            guard case .aggregate(let bounds) = rhs, bounds.count == 2 else {
                throw error("BETWEEN needs {lower, upper}", at: operatorPosition)
            }
        }
        return .comparison(ComparisonNode(lhs, op, rhs, modifier: modifier, options: options))
    }

    private mutating func parseOptions() throws -> ComparisonOptions {
        guard isSymbol("[") else { return [] }
        let start = current.position
        advance()
        guard case .identifier(let letters) = current.kind else { throw error("expected comparison options such as [cd]") }
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            default: throw error("unknown comparison option '\(letter)'", at: start)
            }
        }
        advance()
        try expect(symbol: "]", "']' after comparison options")
        return options
    }

    // MARK: Expressions

    private mutating func parseExpression() throws -> ExpressionNode {
        try enter()
        defer { leave() }
        var lhs = try parseTerm()
        while true {
            if accept(symbol: "+") {
                lhs = .function("add:to:", [lhs, try parseTerm()])
            } else if accept(symbol: "-") {
                lhs = .function("from:subtract:", [lhs, try parseTerm()])
            } else {
                return lhs
            }
        }
    }

    private mutating func parseTerm() throws -> ExpressionNode {
        var lhs = try parsePower()
        while true {
            if accept(symbol: "*") {
                lhs = .function("multiply:by:", [lhs, try parsePower()])
            } else if accept(symbol: "/") {
                lhs = .function("divide:by:", [lhs, try parsePower()])
            } else {
                return lhs
            }
        }
    }

    private mutating func parsePower() throws -> ExpressionNode {
        var lhs = try parseUnary()
        while accept(symbol: "**") { lhs = .function("raise:toPower:", [lhs, try parseUnary()]) }
        return lhs
    }

    private mutating func parseUnary() throws -> ExpressionNode {
        guard accept(symbol: "-") else { return try parsePostfix() }
        try enter()
        defer { leave() }
        let operand = try parseUnary()
        switch operand {
        case .constant(.int(let value)):
            return .constant(value == Int64.min ? .double(-Double(value)) : .int(-value))
        case .constant(.double(let value)): return .constant(.double(-value))
        case .constant(.decimal(let value)): return .constant(.decimal(-value))
        default: return .function("multiply:by:", [.constant(.int(-1)), operand])
        }
    }

    private mutating func parsePostfix() throws -> ExpressionNode {
        var expression = try parsePrimary()
        while accept(symbol: ".") {
            let component: [String]
            switch current.kind {
            case .identifier(let name): component = [name]
            case .collectionOperator(let name): component = [name]
            case .argument("K"):
                component = try keyPathArgument()
            default: throw error("expected a key after '.', found \(describeCurrent())")
            }
            advance()
            if case .keyPath(let base, let components) = expression {
                expression = .keyPath(base: base, components: components + component)
            } else {
                expression = .keyPath(base: expression, components: component)
            }
        }
        return expression
    }

    private mutating func parsePrimary() throws -> ExpressionNode {
        let token = current
        switch token.kind {
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try expect(symbol: ")", "')'")
            return inner
        case .symbol("{"):
            advance()
            var items: [ExpressionNode] = []
            if !accept(symbol: "}") {
                repeat { items.append(try parseExpression()) } while accept(symbol: ",")
                try expect(symbol: "}", "'}' or ','")
            }
            return .aggregate(items)
        case .string(let text):
            advance()
            return .constant(.string(text))
        case .integer(let value):
            advance()
            return .constant(.int(value))
        case .double(let value):
            advance()
            return .constant(.double(value))
        case .variable(let name):
            advance()
            return .variable(name)
        case .argument(let conversion):
            let expression = try argumentExpression(conversion)
            advance()
            return expression
        case .collectionOperator(let name):
            advance()
            return .keyPath(base: .evaluatedObject, components: [name])
        case .identifier(let name):
            advance()
            if isSymbol("(") {
                // FETCH is reserved in Apple's grammar; read as a word only before `(` here, so
                // a key named `fetch` keeps working.
                if name.uppercased() == "FETCH" { return try parseFetch(at: token.position) }
                return try parseFunctionCall(name, at: token.position)
            }
            return .keyPath(base: .evaluatedObject, components: [name])
        case .keyword("NIL"), .keyword("NULL"):
            advance()
            return .constant(.null)
        case .keyword("YES"), .keyword("TRUE"):
            advance()
            return .constant(.bool(true))
        case .keyword("NO"), .keyword("FALSE"):
            advance()
            return .constant(.bool(false))
        case .keyword("SELF"):
            advance()
            return .evaluatedObject
        case .keyword("SUBQUERY"):
            advance()
            return try parseSubquery()
        case .keyword("CAST"):
            advance()
            return try parseCast(at: token.position)
        case .keyword("FUNCTION"):
            advance()
            return try parseMethodCall(at: token.position)
        default:
            throw error("expected an expression, found \(describeCurrent())")
        }
    }

    private mutating func parseArguments() throws -> [ExpressionNode] {
        try expect(symbol: "(", "'('")
        var items: [ExpressionNode] = []
        if !accept(symbol: ")") {
            repeat { items.append(try parseExpression()) } while accept(symbol: ",")
            try expect(symbol: ")", "')' or ','")
        }
        return items
    }

    private mutating func parseFunctionCall(_ name: String, at position: Int) throws -> ExpressionNode {
        guard let function = name.hasSuffix(":") ? ExpressionFunction(selector: name) : ExpressionFunction(formatName: name) else {
            throw error("unknown function '\(name)'", at: position)
        }
        let arguments = try parseArguments()
        guard function.accepts(argumentCount: arguments.count) else {
            throw error("wrong number of arguments to \(name)()", at: position)
        }
        return .function(function.selector, arguments)
    }

    /// `FUNCTION(receiver, "selector:", arguments…)`: a method of the receiver, kept as a
    /// function node whose first argument is the receiver (`ExpressionMethodCall` runs it).
    /// The built-in functions are called by name instead, so their selectors are refused here.
    private mutating func parseMethodCall(at position: Int) throws -> ExpressionNode {
        let arguments = try parseArguments()
        guard arguments.count >= 2, case .constant(.string(let selector)) = arguments[1] else {
            throw error("FUNCTION needs a receiver and a selector name", at: position)
        }
        guard ExpressionFunction(selector: selector) == nil else {
            throw error("call \(selector) by its name, not through FUNCTION", at: position)
        }
        return .function(selector, [arguments[0]] + arguments.dropFirst(2))
    }

    /// `FETCH(request, context, countOnly)`, countOnly a literal `YES` or `NO`.
    private mutating func parseFetch(at position: Int) throws -> ExpressionNode {
        let arguments = try parseArguments()
        guard arguments.count == 3, case .constant(let flag) = arguments[2], let countOnly = flag.fetchCountOnly else {
            throw error("FETCH needs a fetch request, a context and YES or NO", at: position)
        }
        return .fetch(request: arguments[0], context: arguments[1], countOnly: countOnly)
    }

    private mutating func parseSubquery() throws -> ExpressionNode {
        try expect(symbol: "(", "'(' after SUBQUERY")
        let collection = try parseExpression()
        try expect(symbol: ",", "',' after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else { throw error("expected a $variable in SUBQUERY") }
        advance()
        try expect(symbol: ",", "',' after the SUBQUERY variable")
        let predicate = try parsePredicate()
        try expect(symbol: ")", "')' closing SUBQUERY")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    /// `CAST(value, "NSDate")` and friends: how `canonicalFormat` writes values that have no
    /// literal of their own, so they parse back.
    private mutating func parseCast(at position: Int) throws -> ExpressionNode {
        let arguments = try parseArguments()
        guard arguments.count == 2, case .constant(let value) = arguments[0],
              case .constant(.string(let typeName)) = arguments[1] else {
            throw error("CAST needs a constant and a type name", at: position)
        }
        guard let converted = ConstantValue.cast(value, to: typeName) else {
            throw error("cannot CAST to '\(typeName)'", at: position)
        }
        return .constant(converted)
    }

    // MARK: Arguments

    private mutating func takeArgument() throws -> Any? {
        guard nextArgument < arguments.count else { throw error("missing argument for %-specifier") }
        defer { nextArgument += 1 }
        return arguments[nextArgument]
    }

    private mutating func keyPathArgument() throws -> [String] {
        guard let key = unwrapOptional(try takeArgument()).flatMap({ $0 as? String ?? ($0 as? NSString).map(String.init) }), !key.isEmpty else {
            throw error("%K needs a non-empty string argument")
        }
        return key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    private mutating func argumentExpression(_ conversion: String) throws -> ExpressionNode {
        switch conversion {
        case "K":
            return .keyPath(base: .evaluatedObject, components: try keyPathArgument())
        case "@":
            return try Self.expression(forArgument: takeArgument(), depth: 0)
        case "d", "i", "u", "x", "X", "o", "D", "O", "U", "c":
            let value = ConstantValue(any: try takeArgument())
            switch value {
            case .int, .bool, .null: return .constant(value)
            case .double(let number) where number.rounded() == number && abs(number) < 9.2e18: return .constant(.int(Int64(number)))
            default: throw error("%\(conversion) needs an integer argument")
            }
        case "f", "e", "g":
            switch ConstantValue(any: try takeArgument()) {
            case .int(let number): return .constant(.double(Double(number)))
            case .double(let number): return .constant(.double(number))
            case .decimal(let number): return .constant(.decimal(number))
            case .null: return .constant(.null)
            default: throw error("%\(conversion) needs a number argument")
            }
        case "s", "S":
            let value = ConstantValue(any: try takeArgument())
            guard case .string = value else { throw error("%\(conversion) needs a string argument") }
            return .constant(value)
        default:
            throw error("unsupported format specifier %\(conversion)")
        }
    }

    /// A `%@` argument: collections become `{...}` aggregates, everything else a constant.
    static func expression(forArgument argument: Any?, depth: Int) throws -> ExpressionNode {
        if let expression = argument as? NSExpression { return expression.node }
        if let elements = collectionElements(of: argument) {
            guard depth < maximumDepth else { throw PredicateError.semantic("argument collections nested too deeply") }
            return .aggregate(try elements.map { try expression(forArgument: $0, depth: depth + 1) })
        }
        return .constant(ConstantValue(any: argument))
    }
}

private extension ConstantValue {
    /// FETCH's third argument: `YES`/`NO`, or the number Apple's archives may hold.
    var fetchCountOnly: Bool? {
        switch self {
        case .bool(let flag): flag
        case .int(let number): number != 0
        default: nil
        }
    }
}
