import Foundation
@testable import CoreData

/// Random predicates over the model of `QueryTestDatabase`, each with what it must select
/// written as a plain Swift reference filter, independent of the library's comparison code.
/// Shared by the differential tests of the SQL compiler and of the public fetch API.
///
/// Generation reads only the rows it is given (a `QueryTestDatabase`'s, or a copy of them
/// edited as a context's unsaved changes), and the references identify rows by primary key,
/// so one generated case can be judged against two copies of the same data.
enum QueryCases {
    typealias Row = QueryTestRow

    /// One generated predicate: its format, arguments, and what it must select.
    struct Case {
        var format: String
        var args: [Any]
        var reference: (Row) -> Bool
    }

    // MARK: Reference semantics, written without the library's comparison code

    /// Whether `row` is `other`, or its copy: rows are identified by primary key.
    static func same(_ row: Row?, _ other: Row) -> Bool {
        guard let row else { return false }
        return row.primaryKey == other.primaryKey && row.describedEntity.name == other.describedEntity.name
    }

    static func value(_ row: Row?, _ path: String) -> Any? {
        var current: Any? = row
        for key in path.split(separator: ".") {
            guard let object = current as? Row else { return nil }
            current = object.values[String(key)]
        }
        return current
    }

    static func fold(_ text: String, _ options: String) -> String {
        var folding: String.CompareOptions = []
        if options.contains("c") { folding.insert(.caseInsensitive) }
        if options.contains("d") { folding.insert(.diacriticInsensitive) }
        return text.folding(options: folding, locale: nil)
    }

    static func bytesLess(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }

    static func numberTest(_ number: Double?, _ op: String, _ constant: Double?) -> Bool {
        guard let constant else {
            return op == "==" ? number == nil : op == "!=" ? number != nil : false
        }
        guard let number else { return op == "!=" }
        switch op {
        case "==": return number == constant
        case "!=": return number != constant
        case "<": return number < constant
        case "<=": return number <= constant
        case ">": return number > constant
        default: return number >= constant
        }
    }

    static func stringTest(_ subject: String?, _ op: String, _ options: String, _ constant: String) -> Bool {
        guard let subject else { return op == "!=" }
        let (s, c) = (fold(subject, options), fold(constant, options))
        switch op {
        case "==": return Array(s.utf8) == Array(c.utf8)
        case "!=": return Array(s.utf8) != Array(c.utf8)
        case "<": return bytesLess(s, c)
        case ">": return bytesLess(c, s)
        case "BEGINSWITH": return !c.isEmpty && Array(s.utf8).starts(with: Array(c.utf8))
        case "ENDSWITH": return !c.isEmpty && Array(s.utf8).reversed().starts(with: Array(c.utf8).reversed())
        case "CONTAINS": return !c.isEmpty && Data(s.utf8).range(of: Data(c.utf8)) != nil
        case "LIKE":
            var pattern = ""
            var escaped = false
            for character in c {
                if escaped { pattern += NSRegularExpression.escapedPattern(for: String(character)); escaped = false; continue }
                switch character {
                case "\\": escaped = true
                case "*": pattern += ".*"
                case "?": pattern += "."
                default: pattern += NSRegularExpression.escapedPattern(for: String(character))
                }
            }
            let regex = try! NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: [.dotMatchesLineSeparators])
            return regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
        default: // MATCHES: Swift's own regex engine, whole-string match
            let subject = fold(subject, options.contains("d") ? "d" : "")
            let pattern = fold(constant, options.contains("d") ? "d" : "")
            guard let regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: options.contains("c") ? [.caseInsensitive] : []) else { return false }
            return regex.firstMatch(in: subject, range: NSRange(subject.startIndex..., in: subject)) != nil
        }
    }

    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
    static func items(_ row: Row) -> [Row] { row.values["items"] as? [Row] ?? [] }

    // MARK: Generation

    static let numericOperators = ["==", "!=", "<", "<=", ">", ">="]
    static let stringOperators = ["==", "!=", "<", ">", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES"]
    static let options = ["", "[c]", "[d]", "[cd]"]
    static let likePatterns = ["*e*", "?bc", "É*", "*", "a\\\\*c", "item ?", "*日*", "*'*", "a%b", "a_b"]
    static let regexPatterns = ["[a-z]+", ".*e.*", "item \\\\d+", "(?i)abc", ".*", "[^a-z]*", "a.c"]

    static func stringConstant(_ random: inout SplitMix64) -> String {
        random.next(below: 6) == 0 ? random.pick(["e", "E", "a", "item", "ß", "'", "%", "_", "\u{0}"]) : random.pick(QueryTestDatabase.strings)
    }

    static func atom(_ random: inout SplitMix64, _ rows: [String: [Row]]) -> Case {
        switch random.next(below: 16) {
        case 0, 1:
            let key = random.pick(["age", "score", "home.population", "serial"])
            let op = random.pick(numericOperators)
            let constant: Double? = random.next(below: 12) == 0 ? nil : Double(random.next(below: 100) - 15) / (random.next(below: 2) == 0 ? 1 : 4)
            let arg: Any = constant.map { $0.rounded() == $0 ? NSNumber(value: Int($0)) : NSNumber(value: $0) } ?? NSNull()
            return Case(format: "\(key) \(op) %@", args: [arg]) { numberTest(number(value($0, key)), op, constant) }
        case 2, 3, 4:
            let key = random.pick(["name", "nick", "home.name"])
            let op = random.pick(stringOperators)
            let option = random.pick(options)
            let constant = op == "LIKE" ? random.pick(likePatterns).replacingOccurrences(of: "\\\\", with: "\\")
                : op == "MATCHES" ? random.pick(regexPatterns).replacingOccurrences(of: "\\\\", with: "\\") : stringConstant(&random)
            return Case(format: "\(key) \(op)\(option) %@", args: [constant]) { stringTest(value($0, key) as? String, op, option, constant) }
        case 5:
            let choice = random.next(below: 3)
            let format = ["active == YES", "active == NO", "active == nil"][choice]
            return Case(format: format, args: []) { row in
                let flag = (row.values["active"] as? NSNumber)?.boolValue
                return choice == 2 ? flag == nil : flag == (choice == 0)
            }
        case 6:
            let date = Date(timeIntervalSinceReferenceDate: Double(random.next(below: 1000)) * 86400)
            let op = random.pick(numericOperators)
            return Case(format: "born \(op) %@", args: [date]) { numberTest((value($0, "born") as? Date)?.timeIntervalSinceReferenceDate, op, date.timeIntervalSinceReferenceDate) }
        case 7:
            let city = random.pick(rows["City"]!)
            switch random.next(below: 4) {
            case 0: return Case(format: "home == nil", args: []) { $0.values["home"] == nil }
            case 1: return Case(format: "home != nil", args: []) { $0.values["home"] != nil }
            case 2: return Case(format: "home == %@", args: [city]) { same($0.values["home"] as? Row, city) }
            default: return Case(format: "NOT (home != %@)", args: [city]) { same($0.values["home"] as? Row, city) }
            }
        case 8:
            let ages = (0..<random.next(below: 4)).map { _ in random.next(below: 80) - 10 }
            if random.next(below: 2) == 0 {
                return Case(format: "age IN %@", args: [ages]) { row in number(row.values["age"]).map { age in ages.contains { Double($0) == age } } ?? false }
            }
            let names = (0..<random.next(below: 3) + 1).map { _ in stringConstant(&random) }
            let option = random.pick(options)
            return Case(format: "name IN\(option) %@", args: [names]) { row in
                guard let name = row.values["name"] as? String else { return false }
                return names.contains { stringTest(name, "==", option, $0) }
            }
        case 9:
            let low = random.next(below: 60) - 10, high = low + random.next(below: 40)
            return Case(format: "age BETWEEN {\(low), \(high)}", args: []) { row in
                number(row.values["age"]).map { $0 >= Double(low) && $0 <= Double(high) } ?? false
            }
        case 10:
            let modifier = random.pick(["ANY", "ALL", "NONE"])
            let x = Double(random.next(below: 30))
            let (key, op) = (random.pick(["price", "qty"]), random.pick(numericOperators))
            return Case(format: "\(modifier) items.\(key) \(op) %@", args: [NSNumber(value: x)]) { row in
                let tests = items(row).map { numberTest(number($0.values[key]), op, x) }
                return modifier == "ANY" ? tests.contains(true) : modifier == "ALL" ? !tests.contains(false) : !tests.contains(true)
            }
        case 11:
            let modifier = random.pick(["ANY", "ALL", "NONE"])
            let (op, option, constant) = (random.pick(stringOperators), random.pick(options), stringConstant(&random))
            let (path, members): (String, (Row) -> [Row?]) = random.next(below: 2) == 0
                ? ("items.title", { items($0) })
                : ("groups.label", { $0.values["groups"] as? [Row] ?? [] })
            let memberKey = path.hasPrefix("items") ? "title" : "label"
            let format = op == "LIKE" || op == "MATCHES" ? "\(modifier) \(path) ==\(option) %@" : "\(modifier) \(path) \(op)\(option) %@"
            let effective = op == "LIKE" || op == "MATCHES" ? "==" : op
            return Case(format: format, args: [constant]) { row in
                let tests = members(row).map { stringTest($0?.values[memberKey] as? String, effective, option, constant) }
                return modifier == "ANY" ? tests.contains(true) : modifier == "ALL" ? !tests.contains(false) : !tests.contains(true)
            }
        case 12:
            let op = random.pick(numericOperators)
            let x = Double(random.next(below: 40)) / 2
            switch random.next(below: 6) {
            case 0: return Case(format: "items.@count \(op) %d", args: [Int(x) % 4]) { numberTest(Double(items($0).count), op, Double(Int(x) % 4)) }
            case 1: return Case(format: "items.@sum.price \(op) %@", args: [NSNumber(value: x * 2)]) { numberTest(items($0).compactMap { number($0.values["price"]) }.reduce(0, +), op, x * 2) }
            case 2: return Case(format: "items.@avg.qty \(op) %@", args: [NSNumber(value: x / 4)]) { row in
                let values = items(row).compactMap { number($0.values["qty"]) }
                return numberTest(values.isEmpty ? nil : values.reduce(0, +) / Double(values.count), op, x / 4)
            }
            case 3: return Case(format: "items.@max.price \(op) %@", args: [NSNumber(value: x)]) { numberTest(items($0).compactMap { number($0.values["price"]) }.max(), op, x) }
            case 4: return Case(format: "home.residents.@count \(op) %d", args: [Int(x) % 8]) { row in
                numberTest(Double((row.values["home"] as? Row)?.values["residents"].map { ($0 as! [Row]).count } ?? 0), op, Double(Int(x) % 8))
            }
            default:
                let constant = stringConstant(&random)
                return Case(format: "items.@min.title < %@", args: [constant]) { row in
                    let titles = items(row).compactMap { $0.values["title"] as? String }
                    guard let least = titles.min(by: bytesLess) else { return false }
                    return bytesLess(least, constant)
                }
            }
        case 13:
            let (x, q) = (Double(random.next(below: 25)), Double(random.next(below: 10)))
            switch random.next(below: 3) {
            case 0:
                return Case(format: "SUBQUERY(items, $i, $i.price > %@ AND $i.qty < %@).@count > 0", args: [NSNumber(value: x), NSNumber(value: q)]) { row in
                    items(row).contains { numberTest(number($0.values["price"]), ">", x) && numberTest(number($0.values["qty"]), "<", q) }
                }
            case 1:
                let item = random.pick(rows["Item"]!)
                return Case(format: "%@ IN items", args: [item]) { row in items(row).contains { same($0, item) } }
            default:
                return Case(format: "ANY home.residents.age > %@", args: [NSNumber(value: x * 2)]) { row in
                    ((row.values["home"] as? Row)?.values["residents"] as? [Row] ?? []).contains { numberTest(number($0.values["age"]), ">", x * 2) }
                }
            }
        case 14:
            let op = random.pick(numericOperators)
            let x = Double(random.next(below: 60) - 5)
            switch random.next(below: 3) {
            case 0: return Case(format: "age + 5 \(op) %@", args: [NSNumber(value: x)]) { numberTest(number($0.values["age"]).map { $0 + 5 }, op, x) }
            case 1: return Case(format: "score * 2 \(op) %@", args: [NSNumber(value: x)]) { numberTest(number($0.values["score"]).map { $0 * 2 }, op, x) }
            default: return Case(format: "age / 4 \(op) %@", args: [NSNumber(value: x / 4)]) { numberTest(number($0.values["age"]).map { $0 / 4 }, op, x / 4) }
            }
        default:
            let n = random.next(below: 8)
            let op = random.pick(numericOperators)
            return Case(format: "name.length \(op) %d", args: [n]) { row in
                numberTest((row.values["name"] as? String).map { Double($0.utf16.count) }, op, Double(n))
            }
        }
    }

    static func predicate(_ random: inout SplitMix64, _ rows: [String: [Row]], depth: Int = 0) -> Case {
        guard depth < 3, random.next(below: 3) == 0 else { return atom(&random, rows) }
        let left = predicate(&random, rows, depth: depth + 1)
        switch random.next(below: 3) {
        case 0:
            let right = predicate(&random, rows, depth: depth + 1)
            return Case(format: "(\(left.format)) AND (\(right.format))", args: left.args + right.args) { left.reference($0) && right.reference($0) }
        case 1:
            let right = predicate(&random, rows, depth: depth + 1)
            return Case(format: "(\(left.format)) OR (\(right.format))", args: left.args + right.args) { left.reference($0) || right.reference($0) }
        default:
            return Case(format: "NOT (\(left.format))", args: left.args) { !left.reference($0) }
        }
    }

    static func sortDescriptors(_ random: inout SplitMix64) -> [NSSortDescriptor] {
        let keys = ["name", "nick", "age", "score", "born", "active", "home.name", "home.population"]
        var descriptors = (0..<random.next(below: 3)).map { _ in
            NSSortDescriptor(key: random.pick(keys), ascending: random.next(below: 2) == 0,
                             selector: Selector(random.pick(SortSelector.allCases).rawValue))
        }
        descriptors.append(NSSortDescriptor(key: "serial", ascending: true))
        return descriptors
    }
}

/// The reference order of sort descriptors, also written without the library's code: nil
/// first when ascending, numbers and dates by value, strings by the descriptor's selector.
extension QueryCases {
    static func order(_ lhs: Any?, _ rhs: Any?, selector: String) -> ComparisonResult {
        func byValue<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult { a < b ? .orderedAscending : b < a ? .orderedDescending : .orderedSame }
        func byBytes(_ a: String, _ b: String) -> ComparisonResult { bytesLess(a, b) ? .orderedAscending : bytesLess(b, a) ? .orderedDescending : .orderedSame }
        switch (lhs, rhs) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case let (a as String, b as String):
            switch selector {
            case "caseInsensitiveCompare:": return byBytes(fold(a, "c"), fold(b, "c"))
            case "localizedCompare:": return a.localizedCompare(b)
            case "localizedCaseInsensitiveCompare:": return a.localizedCaseInsensitiveCompare(b)
            case "localizedStandardCompare:": return a.localizedStandardCompare(b)
            default: return byBytes(a, b)
            }
        case let (a as Date, b as Date): return byValue(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case let (a as NSNumber, b as NSNumber): return byValue(a.doubleValue, b.doubleValue)
        default: preconditionFailure("no reference order for \(lhs!) and \(rhs!)")
        }
    }

    /// `rows` in the order `descriptors` give; rows they leave tied keep their relative order.
    static func sorted(_ rows: [Row], by descriptors: [NSSortDescriptor]) -> [Row] {
        let keys = descriptors.map { ($0.key!, $0.ascending, $0.selector?.name ?? "compare:") }
        let positions = rows.indices.sorted { left, right in
            for (key, ascending, selector) in keys {
                let result = order(value(rows[left], key), value(rows[right], key), selector: selector)
                if result != .orderedSame { return (result == .orderedAscending) == ascending }
            }
            return left < right
        }
        return positions.map { rows[$0] }
    }
}
