import Foundation
import PackagePlugin

/// Compiles each `.xcdatamodeld` (or `.xcdatamodel`) of a target into a `.momd` (or `.mom`)
/// resource at build time, as Xcode's model compiler does, so that
/// `Bundle.module.url(forResource: "Model", withExtension: "momd")` and
/// `NSManagedObjectModel(contentsOf:)` work as they do in an app.
///
/// For example, in `Package.swift`:
/// ```swift
/// .target(name: "App", dependencies: [.product(name: "CoreData", package: "PortableCoreData")],
///         plugins: [.plugin(name: "CoreDataModelCompiler", package: "PortableCoreData")])
/// ```
@main
struct CoreDataModelCompilerPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let compiler = try context.tool(named: "momc")
        // A model folder is one "file" to SwiftPM; only top-level models count, not the
        // versions inside a `.xcdatamodeld`.
        let models = target.sourceFiles.map(\.url).filter { url in
            url.pathExtension == "xcdatamodeld"
                || (url.pathExtension == "xcdatamodel" && url.deletingLastPathComponent().pathExtension != "xcdatamodeld")
        }
        return models.map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL
                .appendingPathComponent(name + (model.pathExtension == "xcdatamodeld" ? ".momd" : ".mom"))
            return .buildCommand(
                displayName: "Compiling data model \(model.lastPathComponent)",
                executable: compiler.url,
                // The module, for classes the model names as the current module's (`.Animal`).
                arguments: ["--module", target.moduleName, model.path, output.path],
                inputFiles: Self.files(in: model),
                outputFiles: [output])
        }
    }

    /// Every file inside the model folder, so that editing any version recompiles it.
    private static func files(in folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }
}
