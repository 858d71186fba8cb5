import Foundation
import Testing
@testable import CoreData

/// Property-based fuzzing of the whole query path with mutated format strings: parsing never
/// traps; what parses prints a canonical form that parses back to the same tree; compiling and
/// running it on SQLite and evaluating it in memory either succeed or throw an NSError.
///
/// Runs two seconds by default; `PREDICATE_FUZZ_SECONDS=60 swift test --filter PredicateFuzz`
/// runs longer (`PREDICATE_FUZZ_SEED` picks the seed). It prints its counts.
@Suite struct PredicateFuzzTests {
    static let corpus = [
        "name BEGINSWITH[cd] 'a' AND age > 3", "ANY items.price > 2.5 OR NOT (home == nil)", "items.@count BETWEEN {1, 3}",
        "SUBQUERY(items, $i, $i.price > 1 AND $i.title LIKE '*x?').@count > 0", "name IN {'a', \"b\", nil} && score <= -1e3",
        "home.name MATCHES '[a-z]+' || age + 2 * 3 >= abs(score)", "ALL groups.label CONTAINS[c] 'x' AND items.@sum.price < 0x10",
        "name.length == 3 AND born < CAST(100.5, 'NSDate') AND TRUEPREDICATE", "NONE items.title ENDSWITH 'z' AND #in == 1",
        "(((age == 1)) OR ((age + 1) > 2))", "home.residents.@avg.age > 3 AND items.@max.qty != nil", "sum(items.price) > 3",
    ]
    static let tokens = [
        " AND ", " OR ", " NOT ", "(", ")", "{", "}", ",", ".", "==", "!=", "<", ">=", "=<", " IN ", " CONTAINS ", " LIKE ",
        " MATCHES ", " BETWEEN ", "[cd]", "[", "]", "'", "\"", "\\", "$x", "%@", "%K", "%d", "@count", "@sum", "SUBQUERY(",
        "ANY ", "ALL ", "nil", "YES", "-", "+", "*", "/", "**", "0x", "1e", "9223372036854775808", "name", "items", "home",
        "\u{0}", "é", "🙂", "#", "CAST(", "now()", "length", "SELF", "TRUEPREDICATE",
    ]

    @Test func mutatedFormatStringsNeverTrap() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["PREDICATE_FUZZ_SECONDS"] ?? "") ?? 2
        let seed = UInt64(ProcessInfo.processInfo.environment["PREDICATE_FUZZ_SEED"] ?? "") ?? 12345
        var random = SplitMix64(seed: seed)
        let db = try QueryTestDatabase(seed: seed)
        let people = db.rows["Person"]!
        let deadline = Date().addingTimeInterval(seconds)
        var (cases, parsed, compiled, evaluated, roundTripFailures) = (0, 0, 0, 0, 0)
        while Date() < deadline {
            var text = Array(random.pick(Self.corpus).unicodeScalars)
            for _ in 0...random.next(below: 4) {
                let position = random.next(below: text.count + 1)
                switch random.next(below: 4) {
                case 0: text.insert(contentsOf: random.pick(Self.tokens).unicodeScalars, at: position)
                case 1: if position < text.count { text.remove(at: position) }
                case 2: if position < text.count { text.removeSubrange(position..<min(text.count, position + random.next(below: 8))) }
                default: text.insert(Unicode.Scalar(UInt8(random.next(below: 127)) + 1), at: position)
                }
            }
            let format = String(String.UnicodeScalarView(text))
            cases += 1
            let arguments: [Any] = ["name", 3, [1, 2], "x'y"]
            guard let tree = try? PredicateParser.parse(format, arguments: arguments) else { continue }
            parsed += 1
            let printed = PredicateFormatter.format(tree)
            if (try? PredicateParser.parse(printed)) != tree {
                roundTripFailures += 1
                Issue.record("round trip failed: \(format) printed as \(printed)")
            }
            if (try? db.fetchKeys("Person", tree, [])) != nil { compiled += 1 }
            let evaluator = PredicateEvaluator(tree)
            if (try? people.map { try evaluator.evaluate($0) }) != nil { evaluated += 1 }
        }
        print("PredicateFuzz: \(cases) cases in \(seconds) s, \(parsed) parsed, \(compiled) compiled and ran on SQLite, \(evaluated) evaluated, \(roundTripFailures) round-trip failures")
        #expect(cases > 0 && roundTripFailures == 0)
    }
}
