/// The string operators (`CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`) and folding.
///
/// The in-memory evaluator calls these directly and the SQLite store calls the very same code
/// through functions registered on its connection (`SQLCompiler.registerFunctions(on:)`), so a
/// fetch and an in-memory filter can never disagree about Unicode.
enum StringMatching {
    /// Case and diacritic folding per Unicode (Foundation's `folding(options:locale:)`), not ASCII.
    static func fold(_ string: String, _ options: ComparisonOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? string : string.folding(options: folding, locale: nil)
    }

    /// UTF-8 byte order, which is SQLite's BINARY collation and Unicode scalar order.
    ///
    /// Strings are compared as contiguous UTF-8 with one `memcmp`: every sort of a controller and
    /// every insertion into its sections runs this, and walking two UTF-8 views byte by byte
    /// cost several times more.
    static func compareBytes(_ lhs: String, _ rhs: String) -> ComparisonResult {
        // Native and small strings lend their bytes in place; only a bridged string is copied
        // (by `withUTF8`, which needs a mutable copy to make it contiguous).
        let result = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                compareBytes(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
            }
        }
        if let result = result ?? nil { return result }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in rhs.withUTF8 { right in compareBytes(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) } }
    }

    static func compareBytes(_ lhs: Data, _ rhs: Data) -> ComparisonResult {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in compareBytes(left, right) } }
    }

    static func compareBytes(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> ComparisonResult {
        let common = min(lhs.count, rhs.count)
        if common > 0 {
            let result = memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
            if result != 0 { return result < 0 ? .orderedAscending : .orderedDescending }
        }
        if lhs.count == rhs.count { return .orderedSame }
        return lhs.count < rhs.count ? .orderedAscending : .orderedDescending
    }

    /// Applies a string operator. An empty right-hand side matches nothing for CONTAINS,
    /// BEGINSWITH and ENDSWITH, as `-[NSString containsString:@""]` is NO.
    static func matches(_ op: ComparisonOperator, _ options: ComparisonOptions, _ subject: String, _ pattern: String) throws -> Bool {
        if op == .matches { return try regularExpressionMatches(subject, pattern, options) }
        let subject = Array(fold(subject, options).utf8)
        let pattern = fold(pattern, options)
        switch op {
        case .contains:
            let needle = Array(pattern.utf8)
            return !needle.isEmpty && subject.firstRange(of: needle) != nil
        case .beginsWith:
            let needle = Array(pattern.utf8)
            return !needle.isEmpty && subject.starts(with: needle)
        case .endsWith:
            let needle = Array(pattern.utf8)
            return !needle.isEmpty && subject.reversed().starts(with: needle.reversed())
        case .like:
            return likeMatches(Array(String(decoding: subject, as: UTF8.self).unicodeScalars), Array(pattern.unicodeScalars))
        default:
            return false
        }
    }

    /// `*` is any run of Unicode scalars, `?` exactly one, `\` escapes the next. Scalars, not
    /// grapheme clusters, so that "e\u{301}" does not equal "é" here when it does not in `==`.
    /// Greedy matching with one backtrack point: O(n·m) worst case, never exponential.
    static func likeMatches(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        enum Element: Equatable { case literal(Unicode.Scalar), one, any }
        var elements: [Element] = []
        var index = 0
        while index < pattern.count {
            let character = pattern[index]
            if character == "\\", index + 1 < pattern.count {
                elements.append(.literal(pattern[index + 1]))
                index += 2
                continue
            }
            elements.append(character == "*" ? .any : character == "?" ? .one : .literal(character))
            index += 1
        }
        var textIndex = 0, elementIndex = 0
        var starElement = -1, starText = 0
        while textIndex < text.count {
            if elementIndex < elements.count, elements[elementIndex] == .one || elements[elementIndex] == .literal(text[textIndex]) {
                textIndex += 1
                elementIndex += 1
            } else if elementIndex < elements.count, elements[elementIndex] == .any {
                starElement = elementIndex
                starText = textIndex
                elementIndex += 1
            } else if starElement >= 0 {
                elementIndex = starElement + 1
                starText += 1
                textIndex = starText
            } else {
                return false
            }
        }
        while elementIndex < elements.count, elements[elementIndex] == .any { elementIndex += 1 }
        return elementIndex == elements.count
    }

    // MARK: Regular expressions

    private struct RegexCache: @unchecked Sendable {
        var entries: [String: NSRegularExpression] = [:]
    }

    private static let regexCache = Locked(RegexCache())

    /// The whole subject must match (ICU syntax, as `MATCHES` is defined); `[c]` makes the
    /// pattern case-insensitive, `[d]` folds diacritics of both sides.
    static func regularExpressionMatches(_ subject: String, _ pattern: String, _ options: ComparisonOptions) throws -> Bool {
        let diacritics: ComparisonOptions = options.contains(.diacriticInsensitive) ? .diacriticInsensitive : []
        let subject = fold(subject, diacritics)
        let expression = try regularExpression(fold(pattern, diacritics), caseInsensitive: options.contains(.caseInsensitive))
        let range = NSRange(subject.startIndex..., in: subject)
        guard let match = expression.firstMatch(in: subject, options: [.anchored], range: range) else { return false }
        return match.range == range
    }

    static func regularExpression(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        if let cached = regexCache.withLock({ $0.entries[key] }) { return cached }
        let expression: NSRegularExpression
        do {
            // The raw pattern must be valid on its own; the wrapper then demands a whole match
            // (`a|ab` matches "ab", which an anchored first match would miss).
            _ = try NSRegularExpression(pattern: pattern, options: [])
            expression = try NSRegularExpression(pattern: "(?:" + pattern + ")\\z", options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            throw PredicateError.semantic("MATCHES: invalid regular expression \"\(pattern.prefix(200))\"")
        }
        regexCache.withLock { cache in
            if cache.entries.count > 256 { cache.entries.removeAll() }
            cache.entries[key] = expression
        }
        return expression
    }
}
