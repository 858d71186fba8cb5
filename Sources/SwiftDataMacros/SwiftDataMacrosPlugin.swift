import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct SwiftDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [
        ModelMacro.self, PersistedPropertyMacro.self, PropertyMarkerMacro.self,
        ConstraintMarkerMacro.self, ModelActorMacro.self,
    ]
}
