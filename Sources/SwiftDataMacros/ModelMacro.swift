import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model final class Trip { var name: String ... }` becomes a persistent model: every stored
/// `var` not marked `@Transient` reads and writes through what backs the model (see
/// `PersistedPropertyMacro`), and the class gains the schema metadata, the initialisers around
/// backing data and around a fetched object, and `PersistentModel` (which is `Observable`).
///
/// A model class may subclass another (`@Model class Car: Vehicle`), as on Apple platforms
/// since iOS 26. The compiler tells which it is: it lists `PersistentModel` among the
/// conformances to add only for a class that does not inherit it. A subclass keeps its
/// superclass's backing data and overrides what is per class (metadata, constraints), calling
/// up for the rest.
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
        let superclass = protocols.isEmpty ? classDecl.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription : nil
        let properties = persistedProperties(of: declaration)
        let metadata = properties.map { property in
            "SwiftData.Schema.PropertyMetadata(name: \(literal(property.name)), keypath: \\Root.\(property.name), defaultValue: \(property.defaultValue), metadata: \(property.metadata), binding: \(PersistedPropertyMacro.bindingName(of: property.name)))"
        }
        let constraints = freestandingKeyPaths(of: declaration, macro: "Unique")
        let indexes = freestandingKeyPaths(of: declaration, macro: "Index")
        let placeholders = properties.map { "_\($0.name) = SwiftData._SwiftDataNoType()" }
        // Swift gives properties their initial values (nil for an optional) through their init
        // accessors before any initialiser's body; around existing backing data or a fetched
        // object they are not values to keep, so `init(backingData:)` and
        // `init(_$backingSlot:)` drop them.
        let initialValues = PersistedPropertyMacro.initialValuesName(of: typeName)
        let metadataFunction = metadataFunctionName(of: typeName)
        let inheritedMetadata = superclass.map { "\($0).\(metadataFunctionName(of: $0))(rootedAt: root) + " } ?? ""
        let overriding = superclass == nil ? "" : "override "
        // The model's own storage is read on every property access, from the thread of the
        // model's context alone: no dynamic exclusivity check, as Core Data's object storage.
        var members: [DeclSyntax] = [
            "@exclusivity(unchecked) private var \(raw: initialValues): [SwiftData.ModelBackingData.InitialValue] = []",
            """
            public static func \(raw: metadataFunction)<Root: \(raw: typeName)>(rootedAt root: Root.Type) -> [SwiftData.Schema.PropertyMetadata] {
                \(raw: inheritedMetadata)[\(raw: metadata.joined(separator: ",\n"))]
            }
            """,
            "\(raw: overriding)public class var schemaMetadata: [SwiftData.Schema.PropertyMetadata] { \(raw: metadataFunction)(rootedAt: \(raw: typeName).self) }",
            "\(raw: overriding)public class var schemaUniquenessConstraints: [[String]] { \(raw: stringLists(constraints)) }",
            "\(raw: overriding)public class var schemaIndexes: [[String]] { \(raw: stringLists(indexes)) }",
        ]
        if superclass != nil {
            members += [
                """
                override public var persistentBackingData: SwiftData.ModelBackingData {
                    get {
                        let backing = super.persistentBackingData
                        if !\(raw: initialValues).isEmpty { backing.adopt(&\(raw: initialValues)) }
                        return backing
                    }
                    set { super.persistentBackingData = newValue }
                }
                """,
                """
                public required init(backingData: SwiftData.ModelBackingData) {
                    \(raw: placeholders.joined(separator: "\n"))
                    \(raw: initialValues) = []
                    super.init(backingData: backingData)
                }
                """,
                """
                public required init(_$backingSlot slot: consuming SwiftData.ModelBackingSlot) {
                    \(raw: placeholders.joined(separator: "\n"))
                    \(raw: initialValues) = []
                    super.init(_$backingSlot: slot)
                }
                """,
            ]
        } else {
            members += [
                // Empty until first use: a fetched model is given its object instead.
                "@exclusivity(unchecked) private var _$backingData = SwiftData.ModelBackingSlot()",
                """
                public var persistentBackingData: SwiftData.ModelBackingData {
                    get {
                        let backing = _$backingData.backingData()
                        if !\(raw: initialValues).isEmpty { backing.adopt(&\(raw: initialValues)) }
                        return backing
                    }
                    set { _$backingData.hold(newValue) }
                }
                """,
                """
                public required init(backingData: SwiftData.ModelBackingData) {
                    \(raw: placeholders.joined(separator: "\n"))
                    \(raw: initialValues) = []
                    _$backingData = SwiftData.ModelBackingSlot(backingData)
                }
                """,
                """
                public required init(_$backingSlot slot: consuming SwiftData.ModelBackingSlot) {
                    \(raw: placeholders.joined(separator: "\n"))
                    \(raw: initialValues) = []
                    _$backingData = slot
                }
                """,
                // What every persisted property's accessors call, its subclasses' too (they
                // cannot see the slot): a model made in code makes its backing data on its
                // first access only. Each accessor has already handed its own class's initial
                // values over.
                """
                public final func _$persistedValue<Subject: SwiftData.PersistentModel, Value>(of subject: Subject, keyPath: KeyPath<Subject, Value>, binding: SwiftData.ModelPropertyBinding) -> Value {
                    if _$backingData.isEmpty { _ = persistentBackingData }
                    return _$backingData.value(of: subject, keyPath: keyPath, binding: binding)
                }
                """,
                """
                public final func _$setPersistedValue<Subject: SwiftData.PersistentModel, Value>(_ value: Value, of subject: Subject, keyPath: KeyPath<Subject, Value>, binding: SwiftData.ModelPropertyBinding) {
                    if _$backingData.isEmpty { _ = persistentBackingData }
                    _$backingData.setValue(value, of: subject, keyPath: keyPath, binding: binding)
                }
                """,
            ]
        }
        return members
    }

    /// The static function listing a model class's persisted properties, inherited ones first,
    /// with key paths rooted at a given subclass, so that `\Car.make` names a property `Vehicle`
    /// declares. Named after the class, since a subclass adds one of its own beside it.
    static func metadataFunctionName(of typeName: String) -> String {
        "_$persistedProperties_\(typeName.split(separator: ".").last.map(String.init) ?? typeName)"
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
        // A subclass inherits the conformance; the compiler then lists nothing to add.
        guard !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): SwiftData.PersistentModel {}")]
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
