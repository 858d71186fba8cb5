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
        let builder = ModelXMLTreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        let succeeded = parser.parse()
        if let failure = builder.failure { throw failure }
        guard succeeded, let root = builder.root else {
            let reason = parser.parserError.map { describe($0) } ?? "the file is not well-formed XML"
            throw ModelXMLError(line: parser.lineNumber > 0 ? parser.lineNumber : nil, reason)
        }
        return root
    }

    private static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        let description = nsError.localizedDescription
        if description.isEmpty || description.hasPrefix("The operation could") {
            return "the file is not well-formed XML (XMLParser error \(nsError.code))"
        }
        return "the file is not well-formed XML: \(description)"
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

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(parser, "external entity '\(name)' is not allowed in a model file")
    }
}
