import Foundation
import Testing
@testable import CoreData

@Suite struct PredicateParserTests {
    private func parse(_ format: String, _ args: Any...) throws -> PredicateNode {
        try PredicateParser.parse(format, arguments: args)
    }

    private func comparison(_ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode,
                            _ modifier: ComparisonModifier = .direct, _ options: ComparisonOptions = []) -> PredicateNode {
        .comparison(ComparisonNode(lhs, op, rhs, modifier: modifier, options: options))
    }

    @Test func comparisonOperatorsAndTheirSpellings() throws {
        let spellings: [(String, ComparisonOperator)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<", .less), ("<=", .lessOrEqual),
            ("=<", .lessOrEqual), (">", .greater), (">=", .greaterOrEqual), ("=>", .greaterOrEqual),
        ]
        for (symbol, op) in spellings {
            #expect(try parse("age \(symbol) 3") == comparison(.key("age"), op, .constant(.int(3))), "\(symbol)")
        }
    }

    @Test func stringOperatorsWithOptionsAreCaseInsensitiveKeywords() throws {
        #expect(try parse("name beginswith[cd] 'a'") == comparison(.key("name"), .beginsWith, .constant(.string("a")), .direct, [.caseInsensitive, .diacriticInsensitive]))
        #expect(try parse("name CONTAINS[c] \"x\"") == comparison(.key("name"), .contains, .constant(.string("x")), .direct, .caseInsensitive))
        #expect(try parse("name EndsWith[d] 'x'") == comparison(.key("name"), .endsWith, .constant(.string("x")), .direct, .diacriticInsensitive))
        #expect(try parse("name like 'a*b?'") == comparison(.key("name"), .like, .constant(.string("a*b?"))))
        #expect(try parse("name MATCHES '[a-z]+'") == comparison(.key("name"), .matches, .constant(.string("[a-z]+"))))
    }

    @Test func logicalOperatorsAndPrecedence() throws {
        let a = comparison(.key("a"), .equal, .constant(.int(1)))
        let b = comparison(.key("b"), .equal, .constant(.int(2)))
        let c = comparison(.key("c"), .equal, .constant(.int(3)))
        #expect(try parse("a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try parse("(a == 1 || b == 2) && c == 3") == .and([.or([a, b]), c]))
        #expect(try parse("NOT a == 1 AND !(b == 2)") == .and([.not(a), .not(b)]))
        #expect(try parse("a == 1 and b == 2 and c == 3") == .and([a, b, c]))
        #expect(try parse("TRUEPREDICATE") == .constant(true))
        #expect(try parse("falsepredicate OR a == 1") == .or([.constant(false), a]))
    }

    @Test func literals() throws {
        #expect(try parse("a == nil") == comparison(.key("a"), .equal, .constant(.null)))
        #expect(try parse("a == NULL") == comparison(.key("a"), .equal, .constant(.null)))
        #expect(try parse("a == YES AND b == false") == .and([comparison(.key("a"), .equal, .constant(.bool(true))), comparison(.key("b"), .equal, .constant(.bool(false)))]))
        #expect(try parse("a == -12") == comparison(.key("a"), .equal, .constant(.int(-12))))
        #expect(try parse("a == 0x1F") == comparison(.key("a"), .equal, .constant(.int(31))))
        #expect(try parse("a == 2.5e3") == comparison(.key("a"), .equal, .constant(.double(2500))))
        #expect(try parse("a == -0.25") == comparison(.key("a"), .equal, .constant(.double(-0.25))))
        #expect(try parse(#"a == 'it\'s \"q\" \n \u00e9'"#) == comparison(.key("a"), .equal, .constant(.string("it's \"q\" \n é"))))
        #expect(try parse("a BETWEEN {1, 5}") == comparison(.key("a"), .between, .aggregate([.constant(.int(1)), .constant(.int(5))])))
        #expect(try parse("a IN {1, 'x', nil}") == comparison(.key("a"), .in, .aggregate([.constant(.int(1)), .constant(.string("x")), .constant(.null)])))
    }

    @Test func formatArguments() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        #expect(try parse("%K == %@", "bucket.name", "x") == comparison(.key("bucket.name"), .equal, .constant(.string("x"))))
        #expect(try parse("a == %d AND b == %ld AND c == %lld AND d == %i AND e == %lu", 1, 2, 3, 4, 5)
            == .and([1, 2, 3, 4, 5].enumerated().map { comparison(.key(["a", "b", "c", "d", "e"][$0.offset]), .equal, .constant(.int(Int64($0.element)))) }))
        #expect(try parse("a == %f", 1.5) == comparison(.key("a"), .equal, .constant(.double(1.5))))
        #expect(try parse("a == %s", "x") == comparison(.key("a"), .equal, .constant(.string("x"))))
        #expect(try parse("a == %@", date) == comparison(.key("a"), .equal, .constant(.date(date))))
        #expect(try parse("a IN %@", [1, 2]) == comparison(.key("a"), .in, .aggregate([.constant(.int(1)), .constant(.int(2))])))
        #expect(try parse("a IN %@", Set(["z"])) == comparison(.key("a"), .in, .aggregate([.constant(.string("z"))])))
        #expect(try parse("a == %@", NSNumber(value: true)) == comparison(.key("a"), .equal, .constant(.bool(true))))
        #expect(try parse("a == %@", Decimal(string: "1.25")!) == comparison(.key("a"), .equal, .constant(.decimal(Decimal(string: "1.25")!))))
        #expect(try parse("a == %@", NSNull()) == comparison(.key("a"), .equal, .constant(.null)))
        #expect(try parse("a == %@", Optional<String>.none as Any) == comparison(.key("a"), .equal, .constant(.null)))
    }

    @Test func keyPathsVariablesAndCollections() throws {
        #expect(try parse("bucket.owner.name == 'x'") == comparison(.key("bucket.owner.name"), .equal, .constant(.string("x"))))
        #expect(try parse("SELF == $OBJ") == comparison(.evaluatedObject, .equal, .variable("OBJ")))
        #expect(try parse("SELF.name == 'x'") == comparison(.key("name"), .equal, .constant(.string("x"))))
        #expect(try parse("ANY walks.distance > 2") == comparison(.key("walks.distance"), .greater, .constant(.int(2)), .any))
        #expect(try parse("SOME walks.distance > 2") == comparison(.key("walks.distance"), .greater, .constant(.int(2)), .any))
        #expect(try parse("ALL walks.distance > 2") == comparison(.key("walks.distance"), .greater, .constant(.int(2)), .all))
        #expect(try parse("NONE walks.distance > 2") == comparison(.key("walks.distance"), .greater, .constant(.int(2)), .none))
        #expect(try parse("walks.@count > 2") == comparison(.key("walks.@count"), .greater, .constant(.int(2))))
        #expect(try parse("items.@sum.price >= 10") == comparison(.key("items.@sum.price"), .greaterOrEqual, .constant(.int(10))))
        #expect(try parse("length >= 3") == comparison(.key("length"), .greaterOrEqual, .constant(.int(3))))
        #expect(try parse("#in == 1") == comparison(.key("in"), .equal, .constant(.int(1))))
        let subquery = ExpressionNode.subquery(collection: .key("items"), variable: "i",
                                               predicate: comparison(.keyPath(base: .variable("i"), components: ["price"]), .greater, .constant(.int(1))))
        #expect(try parse("SUBQUERY(items, $i, $i.price > 1).@count > 0")
            == comparison(.keyPath(base: subquery, components: ["@count"]), .greater, .constant(.int(0))))
    }

    @Test func arithmeticAndFunctions() throws {
        #expect(try parse("a + 1 * 2 > 3") == comparison(.function("add:to:", [.key("a"), .function("multiply:by:", [.constant(.int(1)), .constant(.int(2))])]), .greater, .constant(.int(3))))
        #expect(try parse("(a - b) / 2 < 1") == comparison(.function("divide:by:", [.function("from:subtract:", [.key("a"), .key("b")]), .constant(.int(2))]), .less, .constant(.int(1))))
        #expect(try parse("date < now()") == comparison(.key("date"), .less, .function("now", [])))
        #expect(try parse("sum(items.price) > 3") == comparison(.function("sum:", [.key("items.price")]), .greater, .constant(.int(3))))
        #expect(try parse("abs(-a) == 1") == comparison(.function("abs:", [.function("multiply:by:", [.constant(.int(-1)), .key("a")])]), .equal, .constant(.int(1))))
    }

    @Test func parenthesisedPredicatesAndExpressionsAreTellApart() throws {
        #expect(try parse("((a + 1)) > 2") == comparison(.function("add:to:", [.key("a"), .constant(.int(1))]), .greater, .constant(.int(2))))
        #expect(try parse("((a > 1))") == comparison(.key("a"), .greater, .constant(.int(1))))
    }

    /// The canonical format parses back to the very same tree.
    @Test func canonicalFormatRoundTrips() throws {
        let uuid = UUID()
        let formats: [(String, [Any])] = [
            ("a == 1 OR b == 2 AND NOT c == 3", []),
            ("(a == 1 OR b == 2) AND c == 3", []),
            ("name BEGINSWITH[cd] 'É\"\\\\x' AND nick LIKE[c] '*a?'", []),
            ("ANY items.price > 2.5 AND ALL tags.name != nil AND NONE tags.name IN {'a', 'b'}", []),
            ("items.@count > 2 AND items.@avg.price < -1e-05", []),
            ("SUBQUERY(items, $i, $i.price > 1 AND $i.owner == SELF).@count > 0", []),
            ("date > %@ AND id == %@ AND url == %@ AND price == %@ AND blob == %@", [Date(timeIntervalSinceReferenceDate: 12.5), uuid, URL(string: "https://x.org/a?b=1")!, Decimal(string: "12.34")!, Data([1, 2, 3])]),
            ("a + b * 2 > abs(c) AND d / 2 <= sum(items.price) AND now() > date", []),
            ("#in == 1 AND a BETWEEN {1, 2} AND s MATCHES '\\\\d+' AND TRUEPREDICATE", []),
            ("name == 'tab\\there\\nnewline' OR flag == YES OR $VAR == nil", []),
        ]
        for (format, args) in formats {
            let tree = try PredicateParser.parse(format, arguments: args)
            let printed = PredicateFormatter.format(tree)
            #expect(try PredicateParser.parse(printed) == tree, "\(format) printed as \(printed)")
            #expect(NSPredicate(format: format, argumentArray: args).canonicalFormat == printed)
        }
    }

    @Test func expressionsParseAlone() throws {
        #expect(try PredicateParser.parseExpression("price * 2") == .function("multiply:by:", [.key("price"), .constant(.int(2))]))
        #expect(NSExpression(format: "price * %@", 3).expressionValue(with: ["price": 2], context: nil) as? NSNumber == 6)
    }

    @Test func expressionsTakeTheirArgumentsAsAnArray() {
        let expression = NSExpression(format: "FUNCTION(%@, 'stringByAppendingString:', name)", argumentArray: ["Dr. "])
        #expect(expression.expressionValue(with: ["name": "Who"], context: nil) as? String == "Dr. Who")
        #expect(NSExpression(format: "price - %@ * %@", argumentArray: [1, 2]).expressionValue(with: ["price": 10], context: nil) as? NSNumber == 8)
    }
}
