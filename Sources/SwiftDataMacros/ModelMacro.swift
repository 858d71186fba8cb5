import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model final class Trip { var name: String ... }` becomes a persistent model: every stored
/// `var` not marked `@Transient` reads and writes through the model's backing data, telling the
/// class's observation registrar, and the class gains the schema metadata, the backing-data
/// initialiser and `PersistentModel` (which is `Observable`).
public struct ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            throw MacroError("@Model applies to a class")
        }
        let typeName = classDecl.name.trimmedDescription
        let properties = persistedProperties(of: declaration)
        let metadata = properties.map { property in
            "SwiftData.Schema.PropertyMetadata(name: \(literal(property.name)), keypath: \\\(typeName).\(property.name), defaultValue: \(property.defaultValue), metadata: \(property.metadata))"
        }
        let constraints = freestandingKeyPaths(of: declaration, macro: "Unique")
        let indexes = freestandingKeyPaths(of: declaration, macro: "Index")
        let placeholders = properties.map { "_\($0.name) = SwiftData._SwiftDataNoType()" }
        return [
            "public var _$backingData = SwiftData.ModelBackingData()",
            "private let _$observationRegistrar = Observation.ObservationRegistrar()",
            """
            public var persistentBackingData: SwiftData.ModelBackingData {
                get { _$backingData }
                set { _$backingData = newValue }
            }
            """,
            """
            public static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                [\(raw: metadata.joined(separator: ",\n"))]
            }
            """,
            "public static var schemaUniquenessConstraints: [[String]] { \(raw: stringLists(constraints)) }",
            "public static var schemaIndexes: [[String]] { \(raw: stringLists(indexes)) }",
            """
            public required init(backingData: SwiftData.ModelBackingData) {
                \(raw: placeholders.joined(separator: "\n"))
                self._$backingData = backingData
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let variable = member.as(VariableDeclSyntax.self), isPersisted(variable) else { return [] }
        return ["@_PersistedProperty"]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        [try ExtensionDeclSyntax("extension \(type.trimmed): SwiftData.PersistentModel {}")]
    }

    struct Property {
        var name: String
        /// A `Schema.Attribute(...)` or `Schema.Relationship(...)` built from the property's
        /// `@Attribute`/`@Relationship` arguments, or `nil`.
        var metadata: String
        /// The property's initial value (`var score: Int = 0`), typed as declared, or `nil`.
        var defaultValue: String
    }

    /// Stored instance `var`s without accessors, other than `@Transient` ones.
    static func isPersisted(_ variable: VariableDeclSyntax) -> Bool {
        guard variable.bindingSpecifier.tokenKind == .keyword(.var),
              !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) }),
              attribute(named: "Transient", of: variable) == nil,
              attribute(named: "_PersistedProperty", of: variable) == nil,
              variable.bindings.count == 1, let binding = variable.bindings.first,
              binding.pattern.is(IdentifierPatternSyntax.self) else { return false }
        if let accessors = binding.accessorBlock {
            // Observers alone leave the property stored; a getter makes it computed.
            guard case .accessors(let list) = accessors.accessors else { return false }
            return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
        }
        return true
    }

    static func persistedProperties(of declaration: some DeclGroupSyntax) -> [Property] {
        declaration.memberBlock.members.compactMap { member in
            guard let variable = member.decl.as(VariableDeclSyntax.self), isPersisted(variable),
                  let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
            var metadata = "nil"
            if let attribute = attribute(named: "Attribute", of: variable) {
                metadata = "SwiftData.Schema.Attribute(\(attribute.arguments?.trimmedDescription ?? ""))"
            } else if let relationship = attribute(named: "Relationship", of: variable) {
                metadata = "SwiftData.Schema.Relationship(\(relationship.arguments?.trimmedDescription ?? ""))"
            }
            return Property(name: name, metadata: metadata, defaultValue: defaultValue(of: variable))
        }
    }

    /// The initial value's expression, which becomes the attribute's default value; with the
    /// declared type, so `[]` or `.leisure` type-checks outside the class's initialisation.
    static func defaultValue(of variable: VariableDeclSyntax) -> String {
        guard let binding = variable.bindings.first, let value = binding.initializer?.value.trimmedDescription else { return "nil" }
        guard let type = binding.typeAnnotation?.type.trimmedDescription else { return value }
        return "(\(value)) as \(type)"
    }

    static func attribute(named name: String, of variable: VariableDeclSyntax) -> AttributeSyntax? {
        variable.attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }.first {
            let written = $0.attributeName.trimmedDescription
            return written == name || written == "SwiftData.\(name)"
        }
    }

    /// The property names of each key-path array in the class's `#Unique`/`#Index` lines:
    /// `#Unique<Trip>([\.name], [\.start, \.end])` → `[["name"], ["start", "end"]]`.
    static func freestandingKeyPaths(of declaration: some DeclGroupSyntax, macro: String) -> [[String]] {
        declaration.memberBlock.members.flatMap { member -> [[String]] in
            guard let expansion = member.decl.as(MacroExpansionDeclSyntax.self),
                  expansion.macroName.text == macro else { return [] }
            return expansion.arguments.compactMap { argument in
                argument.expression.as(ArrayExprSyntax.self)?.elements.compactMap { element in
                    element.expression.as(KeyPathExprSyntax.self)?.components.map {
                        $0.component.trimmedDescription.trimmingPrefix(".")
                    }.joined(separator: ".")
                }
            }
        }
    }

    static func stringLists(_ lists: [[String]]) -> String {
        "[" + lists.map { "[" + $0.map(literal).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
    }

    static func literal(_ text: String) -> String { "\"\(text)\"" }
}

extension String {
    func trimmingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}

struct MacroError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
