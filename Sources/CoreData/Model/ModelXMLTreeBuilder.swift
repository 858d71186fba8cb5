#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses XML data into a `ModelXMLElement` tree.
///
/// Input may be hostile (a model file is just a file), so the tree is bounded in depth and
/// size, external entities are never resolved, and every failure becomes a `ModelXMLError`
/// rather than a trap.
final class ModelXMLTreeBuilder: NSObject, XMLParserDelegate {
    /// Xcode's files are four levels deep; anything far deeper is not a model.
    static let maximumDepth = 64
    /// Far more elements than any real model has, low enough to bound memory.
    static let maximumElementCount = 500_000

    private var stack: [ModelXMLElement] = []
    private var root: ModelXMLElement?
    private var elementCount = 0
    private var failure: ModelXMLError?

    /// The root element of `data`, or the first problem found in it.
    static func parse(_ data: Data) throws(ModelXMLError) -> ModelXMLElement {
        try checkEncoding(of: data)
        let builder = ModelXMLTreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        let succeeded = parser.parse()
        if let failure = builder.failure { throw failure }
        // On Linux, parse() can return true after libxml2 recovered from an error.
        guard succeeded, parser.parserError == nil, let root = builder.root else {
            let reason = parser.parserError.map(describe) ?? "the file is not well-formed XML"
            throw ModelXMLError(line: parser.lineNumber > 0 ? parser.lineNumber : nil, reason)
        }
        return root
    }

    /// Xcode writes UTF-8. Anything else is refused before parsing: swift-corelibs-foundation's
    /// XMLParser traps on element names that are not valid UTF-8 (found by fuzzing), and
    /// libxml2 would transcode a file declaring another encoding into such names.
    private static func checkEncoding(of data: Data) throws(ModelXMLError) {
        guard String(decoding: data, as: UTF8.self).utf8.elementsEqual(data) else {
            throw ModelXMLError(line: nil, "the file is not valid UTF-8 text")
        }
        guard let declared = declaredEncoding(in: data) else { return }
        guard ["utf-8", "utf8"].contains(declared.lowercased()) else {
            throw ModelXMLError(line: 1, "the file declares encoding '\(declared)'; model files are UTF-8")
        }
    }

    /// The `encoding` of the `<?xml ...?>` declaration, if the file starts with one.
    private static func declaredEncoding(in data: Data) -> String? {
        let head = String(decoding: data.prefix(512), as: UTF8.self)
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return nil }
        let declaration = head[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return "" }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    private static func describe(_ error: Error) -> String {
        let code = (error as NSError).code
        let name = XMLParser.ErrorCode(rawValue: code).map { String(describing: $0) } ?? "error \(code)"
        return "the file is not well-formed XML (\(name))"
    }

    private func fail(_ parser: XMLParser, _ problem: String) {
        if failure == nil { failure = ModelXMLError(line: parser.lineNumber, problem) }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        elementCount += 1
        guard elementCount <= Self.maximumElementCount else {
            return fail(parser, "the file has more than \(Self.maximumElementCount) elements")
        }
        guard stack.count < Self.maximumDepth else {
            return fail(parser, "elements are nested more than \(Self.maximumDepth) levels deep")
        }
        let element = ModelXMLElement(name: elementName, attributes: attributeDict, line: parser.lineNumber)
        if let parent = stack.last {
            parent.children.append(element)
        } else if root == nil {
            root = element
        }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        if !stack.isEmpty { stack.removeLast() }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        fail(parser, Self.describe(parseError))
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {
        fail(parser, Self.describe(validationError))
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(parser, "external entity '\(name)' is not allowed in a model file")
    }
}
