import SwiftSyntax
import SwiftSyntaxMacros

/// `@Attribute`, `@Relationship` and `@Transient` only mark a property: `@Model` reads their
/// arguments into the schema metadata, so they expand to nothing.
public struct PropertyMarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

/// `#Unique` and `#Index` inside a `@Model` class: `@Model` reads their key paths, so they
/// expand to nothing.
public struct ConstraintMarkerMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}
