import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Managed var name: String?` becomes a property read and written through the object's
/// key-value coding, which is what `@NSManaged` does on Apple platforms.
public struct ManagedMacro: AccessorMacro {
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
        return [
            "get { managedValue(forKey: \(literal: key)) }",
            "set { setManagedValue(newValue, forKey: \(literal: key)) }",
        ]
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
