import SwiftSyntax
import SwiftSyntaxMacros

/// `@KeyValueCoded var firstInitial: String { ... }` makes a Swift computed property of an
/// `NSManagedObject` subclass visible to key-value coding (`value(forKey:)`, `setValue(_:forKey:)`,
/// section key paths, predicates and sorts evaluated in memory): what `@objc` does on Apple
/// platforms.
///
/// Linux has no runtime table of a class's properties, and a macro on a property cannot add
/// to one, so the macro leaves a marker beside the property: a nested type whose name carries
/// the key (`KeyValueCoding_firstInitial`) and which hands out a key path to the property.
/// `NSManagedObject` finds it by its mangled name the first time the key is asked for. This
/// works in the class body and in extensions alike, for private properties too.
public struct KeyValueCodedMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
              variable.bindingSpecifier.tokenKind == .keyword(.var),
              variable.bindings.count == 1, let binding = variable.bindings.first,
              let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier,
              binding.typeAnnotation != nil else {
            throw ManagedMacroError("@KeyValueCoded applies to one 'var' with an explicit type, e.g. '@KeyValueCoded var firstInitial: String { ... }'")
        }
        guard !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }) else {
            throw ManagedMacroError("@KeyValueCoded applies to instance properties")
        }
        guard let owner = enclosingTypeName(in: context) else {
            throw ManagedMacroError("@KeyValueCoded applies to properties of a class or of an extension of one")
        }
        let name = identifier.trimmedDescription.filter { $0 != "`" }
        // Internal even in a private extension: a private type's mangled name carries a
        // file discriminator, and the run-time look-up builds the name without one.
        return ["""
            internal enum KeyValueCoding_\(raw: name): KeyValueCodedProperty {
                static var accessor: KeyValueCodedAccessor { KeyValueCodedAccessor(\\\(raw: owner).\(raw: identifier.trimmedDescription)) }
            }
            """]
    }

    /// The class or extended type the property is declared in.
    private static func enclosingTypeName(in context: some MacroExpansionContext) -> String? {
        for node in context.lexicalContext {
            if let type = node.as(ClassDeclSyntax.self) { return type.name.trimmedDescription }
            if let type = node.as(ExtensionDeclSyntax.self) { return type.extendedType.trimmedDescription }
        }
        return nil
    }
}
