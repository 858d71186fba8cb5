import SwiftSyntax
import SwiftSyntaxMacros

/// What `@Model` puts on each persisted property: accessors through the backing data that
/// report reads and writes to the class's observation registrar, an init
/// accessor so the class's own initialisers assign it like a stored property, and a
/// placeholder stored peer that init accessor initialises (Swift requires one to track
/// definite initialisation).
public struct PersistedPropertyMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = propertyName(of: declaration) else { return [] }
        return [
            """
            @storageRestrictions(accesses: _$backingData, initializes: _\(raw: name))
            init(initialValue) {
                _$backingData.setInitialValue(initialValue, forKey: \(literal: name))
                _\(raw: name) = SwiftData._SwiftDataNoType()
            }
            """,
            """
            get {
                _$observationRegistrar.access(self, keyPath: \\.\(raw: name))
                return _$backingData.getValue(forKey: \(literal: name))
            }
            """,
            """
            set {
                _$observationRegistrar.withMutation(of: self, keyPath: \\.\(raw: name)) {
                    _$backingData.setValue(newValue, forKey: \(literal: name), of: self)
                }
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let name = propertyName(of: declaration) else { return [] }
        return ["@Transient private var _\(raw: name): SwiftData._SwiftDataNoType"]
    }

    static func propertyName(of declaration: some DeclSyntaxProtocol) -> String? {
        declaration.as(VariableDeclSyntax.self)?.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }
}
