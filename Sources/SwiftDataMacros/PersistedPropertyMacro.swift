import SwiftSyntax
import SwiftSyntaxMacros

/// What `@Model` puts on each persisted property: accessors through what backs the model (its
/// managed object, or its backing data before insertion) that report reads and writes to the
/// observation registrar, an init accessor so the class's own
/// initialisers assign it like a stored property, and three peers: the property's binding (a
/// static resolved once per class, so an access looks nothing up by name), its key path for the
/// registrar (a static too) and a placeholder stored property the init accessor initialises
/// (Swift requires one to track definite initialisation).
///
/// The init accessor keeps the value in a list of the class's own (a subclass initialises its
/// properties before its superclass has made the backing data); the model hands that list to
/// its backing data the first time the backing data is asked for.
public struct PersistedPropertyMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = propertyName(of: declaration), let typeName = enclosingClassName(in: context) else { return [] }
        let binding = "\(typeName).\(bindingName(of: name))"
        let keyPath = "\(typeName).\(keyPathName(of: name))"
        let initialValues = initialValuesName(of: typeName)
        return [
            """
            @storageRestrictions(accesses: \(raw: initialValues), initializes: _\(raw: name))
            init(initialValue) {
                SwiftData.ModelBackingData.collect(initialValue, for: \(raw: binding), into: &\(raw: initialValues))
                _\(raw: name) = SwiftData._SwiftDataNoType()
            }
            """,
            """
            get {
                if !\(raw: initialValues).isEmpty { _ = persistentBackingData }
                return _$persistedValue(of: self, keyPath: \(raw: keyPath), binding: \(raw: binding))
            }
            """,
            """
            set {
                if !\(raw: initialValues).isEmpty { _ = persistentBackingData }
                _$setPersistedValue(newValue, of: self, keyPath: \(raw: keyPath), binding: \(raw: binding))
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let name = propertyName(of: declaration), let typeName = enclosingClassName(in: context) else { return [] }
        return [
            "private static let \(raw: bindingName(of: name)) = SwiftData.ModelPropertyBinding.make(key: \(literal: name), keyPath: \\\(raw: typeName).\(raw: name))",
            "private static let \(raw: keyPathName(of: name)) = \\\(raw: typeName).\(raw: name)",
            "@Transient private var _\(raw: name): SwiftData._SwiftDataNoType",
        ]
    }

    static func propertyName(of declaration: some DeclSyntaxProtocol) -> String? {
        declaration.as(VariableDeclSyntax.self)?.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }

    static func enclosingClassName(in context: some MacroExpansionContext) -> String? {
        context.lexicalContext.lazy.compactMap { $0.as(ClassDeclSyntax.self) }.first?.name.trimmedDescription
    }

    /// The static binding of property `name`.
    static func bindingName(of name: String) -> String { "_$property_\(name)" }

    /// The key path of property `name` that its accessors report to the observation
    /// registrar: made once per class, where a literal in the accessor is looked up at each
    /// access.
    static func keyPathName(of name: String) -> String { "_$keyPath_\(name)" }

    /// The list of initial values of the class named `typeName`: one per class, private, so
    /// a subclass's does not clash with its superclass's.
    static func initialValuesName(of typeName: String) -> String { "_$initialValues_\(typeName)" }
}
