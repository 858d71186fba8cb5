import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Managed var name: String?` becomes a property read and written through the object's typed
/// slots, which is what `@NSManaged` does on Apple platforms.
///
/// Beside the property it declares a `ManagedPropertyBinding`, a static of the class, that
/// finds the property's slot once per class rather than by name on each access. A generic
/// class cannot hold a static stored property, so there (and for Apple's `primitiveName`
/// convention) the accessors pass the key alone and each access finds the slot by name.
public struct ManagedMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
              let binding = variable.bindings.first,
              let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else {
            throw ManagedMacroError("@Managed applies to a stored 'var' property")
        }
        guard binding.typeAnnotation != nil else {
            throw ManagedMacroError("@Managed needs an explicit type, e.g. '@Managed var name: String?'")
        }
        guard binding.initializer == nil else {
            throw ManagedMacroError("@Managed properties take their default from the model, not an initial value")
        }
        if explicitKey(of: node) == nil, let key = primitiveKey(for: identifier.trimmedDescription) {
            // Apple's `@NSManaged var primitiveName` convention: the stored value of `name`,
            // read and written without access or change notifications.
            return [
                "get { primitiveManagedValue(forKey: \(literal: key)) }",
                "set { setPrimitiveManagedValue(newValue, forKey: \(literal: key)) }",
            ]
        }
        let key = explicitKey(of: node) ?? identifier.trimmedDescription
        guard isInNonGenericType(context) else {
            return [
                "get { managedValue(forKey: \(literal: key)) }",
                "set { setManagedValue(newValue, forKey: \(literal: key)) }",
            ]
        }
        let peer = bindingName(of: identifier)
        return [
            "get { managedValue(for: Self.\(raw: peer)) }",
            "set { setManagedValue(newValue, for: Self.\(raw: peer)) }",
        ]
    }

    /// The binding the accessors above use: `nonisolated` so that a main-actor class's
    /// properties keep working off the main actor, as their key-value coding does.
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
              let identifier = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier,
              explicitKey(of: node) != nil || primitiveKey(for: identifier.trimmedDescription) == nil,
              isInNonGenericType(context) else { return [] }
        let key = explicitKey(of: node) ?? identifier.trimmedDescription
        return ["private nonisolated static let \(raw: bindingName(of: identifier)) = ManagedPropertyBinding(key: \(literal: key))"]
    }

    private static func bindingName(of identifier: TokenSyntax) -> String {
        "_managedBinding_" + identifier.trimmedDescription.filter { $0 != "`" }
    }

    /// Whether the property is declared where a static stored property may be: a class that is
    /// not generic, or an extension. (An extension does not show whether the class it extends
    /// is generic; a generic class declares its `@Managed` properties in its body.)
    private static func isInNonGenericType(_ context: some MacroExpansionContext) -> Bool {
        for node in context.lexicalContext {
            if let type = node.as(ClassDeclSyntax.self) { return type.genericParameterClause == nil }
            if node.is(ExtensionDeclSyntax.self) { return true }
        }
        return false
    }

    /// `updatedAt` for `primitiveUpdatedAt`; nil for names that do not follow the convention.
    static func primitiveKey(for name: String) -> String? {
        let prefix = "primitive"
        guard name.hasPrefix(prefix), let first = name.dropFirst(prefix.count).first, first.isUppercase else { return nil }
        return first.lowercased() + name.dropFirst(prefix.count + 1)
    }

    /// The key given as `@Managed("otherName")`, for a Swift name that differs from the model's.
    private static func explicitKey(of node: AttributeSyntax) -> String? {
        guard let argument = node.arguments?.as(LabeledExprListSyntax.self)?.first,
              let literal = argument.expression.as(StringLiteralExprSyntax.self) else { return nil }
        return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    }
}

struct ManagedMacroError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@main
struct CoreDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [ManagedMacro.self, KeyValueCodedMacro.self]
}
