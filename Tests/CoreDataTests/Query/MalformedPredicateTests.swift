import Foundation
import Testing
@testable import CoreData

@Suite struct MalformedPredicateTests {
    static let malformed: [String] = [
        "", "   ", "name ==", "== 3", "name = = 3", "(name == 3", "name == 3)", "name == 'abc", "name == \"abc",
        "name BEGINSWITH", "AND name == 1", "name == 1 AND", "name == 1 OR OR b == 2", "NOT", "ANY", "name IN",
        "name BETWEEN 1", "name BETWEEN {1}", "name BETWEEN {1, 2, 3}", "name ==[x] 'a'", "name ==[ 'a'", "name ==[c 'a'",
        "name == 12abc", "name == 0xZZ", "name == 1e", "name == %", "name == %q", "name == %@", "%K == 1",
        "name == $", "name.@ == 1", "name. == 1", "SUBQUERY(items, i, i.x > 1).@count > 0", "SUBQUERY(items $i, 1)",
        "frobnicate(a) == 1", "abs(a, b) == 1", "CAST(1, 'NSFoo') == a", "CAST(a, 'NSDate') == 1", "name == {1, 2",
        "name == 'a' 'b'", "a == 1 b == 2", "name § 3", "FUNCTION(a) == 1", "name == \\u12", "'\\u00' == a",
        "a == 1 &&", "|| a == 1", "name", "TRUEPREDICATE == 1", "SELF", "(((((a == 1)))", "a == (1",
    ]

    @Test func everyMalformedStringThrowsAFormattingErrorWithAPosition() {
        #expect(Self.malformed.count >= 40)
        for format in Self.malformed {
            do {
                _ = try NSPredicate.parse(format: format, argumentArray: [])
                Issue.record("parsed without error: \(format)")
            } catch let error as NSError {
                #expect(error.domain == NSCocoaErrorDomain, "\(format)")
                #expect(error.code == 2048, "\(format)")
                let position = error.userInfo[PredicateErrorPositionKey] as? Int
                #expect(position != nil && position! >= 0 && position! <= format.unicodeScalars.count, "\(format)")
                #expect(error.localizedDescription.contains("position"), "\(format)")
            }
        }
    }

    @Test func nonThrowingInitializerCarriesTheErrorInsteadOfTrapping() throws {
        for format in Self.malformed {
            let predicate = NSPredicate(format: format)
            #expect(predicate.evaluate(with: ["name": "x"]) == false)
            #expect(throws: NSError.self) { try predicate.parsedTree() }
            let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(value: true), predicate])
            #expect(throws: NSError.self) { try compound.parsedTree() }
        }
    }

    @Test func errorNamesTheProblemAndWhere() {
        do {
            _ = try NSPredicate.parse(format: "name == 3 AND age >")
            Issue.record("should throw")
        } catch let error as NSError {
            #expect(error.userInfo[PredicateErrorPositionKey] as? Int == 19)
            #expect(error.localizedDescription.contains("expected an expression"))
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let depth = 5000
        let formats = [
            String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth),
            String(repeating: "NOT ", count: depth) + "a == 1",
            "a == " + String(repeating: "-", count: depth) + "1",
            "a IN " + String(repeating: "{", count: depth) + String(repeating: "}", count: depth),
            "a == " + String(repeating: "abs(", count: depth) + "1" + String(repeating: ")", count: depth),
        ]
        for format in formats {
            #expect(throws: NSError.self) { try NSPredicate.parse(format: format) }
        }
        let fine = String(repeating: "(", count: 50) + "a == 1" + String(repeating: ")", count: 50)
        #expect(throws: Never.self) { try NSPredicate.parse(format: fine) }
    }

    @Test func argumentsOfTheWrongTypeThrow() {
        #expect(throws: NSError.self) { try NSPredicate.parse(format: "%K == 1", 42) }
        #expect(throws: NSError.self) { try NSPredicate.parse(format: "a == %d", "seven") }
        #expect(throws: NSError.self) { try NSPredicate.parse(format: "a == %s", 7) }
    }
}
