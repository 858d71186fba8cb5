import Foundation
import Testing
@testable import CoreData

@Suite struct PredicateEvaluatorTests {
    let ann: [String: Any] = [
        "name": "Ann", "nick": "Émilie", "age": 31, "score": 4.5, "active": true, "title": "item 10",
        "tags": ["red", "Blue"], "scores": [1, 2, 3, NSNull()],
        "pets": [["name": "Rex", "age": 3], ["name": "Tom", "age": 9]] as [[String: Any]],
        "home": ["city": "Zürich", "zip": 8000] as [String: Any],
    ]

    private func matches(_ format: String, _ args: Any..., object: Any? = nil) -> Bool {
        NSPredicate(format: format, argumentArray: args).evaluate(with: object ?? ann)
    }

    @Test func comparisonsOnNumbersStringsAndBooleans() {
        #expect(matches("age == 31 AND age != 30 AND age > 30 AND age >= 31 AND age < 32 AND age <= 31"))
        #expect(matches("score == 4.5 AND score > 4 AND age == 31.0"))
        #expect(matches("active == YES AND active == 1 AND active != NO"))
        #expect(matches("name == 'Ann' AND name < 'Bob' AND name > 'Al'"))
        #expect(!matches("name == 'ann'"))
        #expect(matches("name ==[c] 'ann' AND nick ==[cd] 'EMILIE' AND nick !=[c] 'emilie'"))
        #expect(matches("age BETWEEN {30, 31} AND NOT age BETWEEN {32, 40}"))
    }

    @Test func nilSemantics() {
        #expect(matches("missing == nil AND NOT missing != nil"))
        #expect(matches("missing != 5"))
        #expect(!matches("missing == 5"))
        #expect(!matches("missing < 5") && !matches("missing >= 5"))
        #expect(matches("NOT (missing < 5)"))
        #expect(!matches("missing CONTAINS 'a'"))
    }

    @Test func differentKindsNeverMatch() {
        #expect(!matches("age == '31'"))
        #expect(matches("age != '31'"))
        #expect(!matches("name > 3"))
        #expect(!matches("age CONTAINS '3'"))
    }

    @Test func stringOperatorsFoldUnicode() {
        #expect(matches("nick BEGINSWITH 'Ém' AND NOT nick BEGINSWITH 'em' AND nick BEGINSWITH[cd] 'EM'"))
        #expect(matches("nick ENDSWITH[d] 'lie' AND nick CONTAINS[c] 'MIL'"))
        #expect(matches("home.city CONTAINS[cd] 'zur' AND home.city LIKE 'Z*h' AND home.city LIKE[cd] 'z?rich'"))
        #expect(!matches("name CONTAINS ''"))
        #expect(matches("name MATCHES 'A[a-z]+' AND NOT name MATCHES 'A' AND name MATCHES[c] 'ann'"))
        #expect(matches("'Straße' ==[c] 'STRASSE'", object: [String: Any]()))
        #expect(matches("title LIKE 'item ??' AND NOT title LIKE 'item ?'"))
        #expect(matches("'a*b' LIKE 'a\\\\*b' AND NOT 'axb' LIKE 'a\\\\*b'", object: [String: Any]()))
    }

    @Test func inAndContainsOnCollections() {
        #expect(matches("name IN {'Bob', 'Ann'} AND NOT name IN {'Bob'} AND name IN[c] {'ANN'}"))
        #expect(matches("name IN %@", ["Ann", "Zed"]))
        #expect(matches("tags CONTAINS 'red' AND NOT tags CONTAINS 'green' AND 'Blue' IN tags"))
        #expect(matches("'nn' IN name"))
    }

    @Test func anyAllNoneAndCollectionOperators() {
        #expect(matches("ANY pets.age > 5 AND NOT ALL pets.age > 5 AND NONE pets.name == 'Max'"))
        #expect(matches("ALL pets.age > 1 AND ANY tags ==[c] 'BLUE'"))
        #expect(matches("pets.@count == 2 AND tags.@count == 2 AND pets.@sum.age == 12 AND pets.@avg.age == 6"))
        #expect(matches("pets.@max.age == 9 AND pets.@min.name == 'Rex' AND scores.@sum == 6 AND scores.@avg == 2"))
        #expect(matches("SUBQUERY(pets, $p, $p.age > 5 AND $p.name BEGINSWITH 'T').@count == 1"))
        #expect(matches("missingList.@count == 0"))
    }

    @Test func arithmeticLengthAndFunctions() {
        #expect(matches("age + 1 == 32 AND age * 2 == 62 AND age - 1 == 30 AND age / 2 == 15.5"))
        #expect(matches("name.length == 3 AND nick.length == 6"))
        #expect(matches("length >= 3 AND length < 4", object: "abc"))
        #expect(matches("SELF MATCHES '[a-c]+'", object: "abc"))
        #expect(matches("sum(pets.age) == 12 AND max(pets.age) == 9 AND average({1, 2, 3}) == 2 AND count(pets) == 2"))
    }

    @Test func substitutionVariables() {
        let template = NSPredicate(format: "age > $MIN AND name IN $NAMES")
        #expect(template.withSubstitutionVariables(["MIN": 30, "NAMES": ["Ann"]]).evaluate(with: ann))
        #expect(!template.withSubstitutionVariables(["MIN": 31, "NAMES": ["Ann"]]).evaluate(with: ann))
        #expect(template.evaluate(with: ann, substitutionVariables: ["MIN": 1, "NAMES": ["Ann"]]))
        #expect(!template.evaluate(with: ann), "unbound variables do not match")
        #expect(template.withSubstitutionVariables(["MIN": 30]).canonicalFormat == "age > 30 AND name IN $NAMES")
    }

    @Test func foundationCompoundsAndValuePredicatesMixWithOurs() throws {
        let ours = NSPredicate(format: "age > 30")
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [ours, NSPredicate(value: true),
            NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(format: "name == 'Bob'"))])
        #expect(compound.evaluate(with: ann))
        #expect(try compound.parsedTree() == .and([try ours.parsedTree(), .constant(true), .not(try PredicateParser.parse("name == 'Bob'"))]))
        #expect(compound.canonicalFormat == "age > 30 AND TRUEPREDICATE AND (NOT name == \"Bob\")")
        #expect(try NSPredicate(value: false).parsedTree() == .constant(false))
        let block = NSPredicate { _, _ in true }
        if case .block = try block.parsedTree() {} else { Issue.record("a foreign block predicate stays opaque") }
        #expect(try PredicateEvaluator(NSCompoundPredicate(orPredicateWithSubpredicates: [block]).parsedTree()).evaluate(ann))
    }

    @Test func evaluationErrorsThrowFromTheEvaluator() throws {
        #expect(throws: NSError.self) { try PredicateEvaluator(PredicateParser.parse("pets == 3")).evaluate(ann) }
        #expect(throws: NSError.self) { try PredicateEvaluator(PredicateParser.parse("name MATCHES '('")).evaluate(ann) }
        #expect(throws: NSError.self) { try PredicateEvaluator(PredicateParser.parse("name == $X")).evaluate(ann) }
        #expect(throws: NSError.self) { try PredicateEvaluator(PredicateParser.parse("length == 1")).evaluate(42) }
    }

    @Test func expressionsEvaluate() {
        #expect(NSExpression(forKeyPath: "home.zip").expressionValue(with: ann, context: nil) as? NSNumber == 8000)
        #expect(NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "pets.age")]).expressionValue(with: ann, context: nil) as? NSNumber == 12)
        #expect(NSExpression(forFunction: "add:to:", arguments: [NSExpression(forConstantValue: 2), NSExpression(forConstantValue: 3)]).expressionValue(with: nil, context: nil) as? NSNumber == 5)
        #expect(NSExpression(forFunction: "median:", arguments: [NSExpression(forConstantValue: [1, 5, 2])]).expressionValue(with: nil, context: nil) as? NSNumber == 2)
        #expect(NSExpression(forFunction: "stddev:", arguments: [NSExpression(forConstantValue: [2, 4, 4, 4, 5, 5, 7, 9])]).expressionValue(with: nil, context: nil) as? NSNumber == 2)
        #expect(NSExpression(forVariable: "x").expressionValue(with: nil, context: ["x": 7]) as? NSNumber == 7)
        let keyPath = NSExpression(forKeyPath: "a.b")
        #expect(keyPath.expressionType == .keyPath && keyPath.keyPath == "a.b")
        #expect(NSExpression(forConstantValue: 3).constantValue as? NSNumber == 3)
        let function = NSExpression(forFunction: "max:", arguments: [keyPath])
        #expect(function.function == "max:" && function.arguments?.first == keyPath && function.expressionType == .function)
        #expect(NSExpression.expressionForEvaluatedObject().expressionValue(with: "s", context: nil) as? String == "s")
    }
}
