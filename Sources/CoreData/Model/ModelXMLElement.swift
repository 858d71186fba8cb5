/// One element of a model's `contents` XML, with the line it starts on for error messages.
///
/// The reader first turns the whole file into this small tree, then builds descriptions from
/// it: entities refer to each other by name in any order, so a second pass is needed anyway,
/// and the tree keeps the parser's delegate callbacks free of model logic.
final class ModelXMLElement {
    let name: String
    let attributes: [String: String]
    let line: Int
    var children: [ModelXMLElement] = []

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    subscript(attribute: String) -> String? { attributes[attribute] }

    /// Whether a boolean attribute is set; Xcode writes `YES` and omits the attribute when false.
    func flag(_ attribute: String) -> Bool {
        switch attributes[attribute] {
        case "YES", "yes", "true", "1": true
        default: false
        }
    }

    func children(named childName: String) -> [ModelXMLElement] {
        children.filter { $0.name == childName }
    }

    /// The children of the wrapper elements `<wrapper><child/>...</wrapper>` (Xcode repeats the
    /// wrapper if a file was merged by hand, so every occurrence counts).
    func children(named childName: String, in wrapper: String) -> [ModelXMLElement] {
        children(named: wrapper).flatMap { $0.children(named: childName) }
    }
}
