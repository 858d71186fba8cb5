// Our `momc`: compiles an Xcode data model into the form apps ship, as Xcode's model compiler
// does. The `CoreDataModelCompiler` build-tool plugin runs it on every `.xcdatamodeld` of a
// target, naming the target's module; it can also be run by hand:
//
//     swift run momc [--module App] Model.xcdatamodeld Model.momd
@_spi(ModelCompiler) import CoreData

var arguments = Array(CommandLine.arguments.dropFirst())
var moduleName: String?
if arguments.count == 4, arguments[0] == "--module" {
    moduleName = arguments[1]
    arguments.removeFirst(2)
}
guard arguments.count == 2, let source = arguments.first, let destination = arguments.last else {
    FileHandle.standardError.write(Data("usage: momc [--module NAME] <Model.xcdatamodeld | Model.xcdatamodel> <Model.momd | Model.mom>\n".utf8))
    exit(64)
}
do {
    try ModelCompiler.compile(URL(fileURLWithPath: source), into: URL(fileURLWithPath: destination), moduleName: moduleName)
} catch {
    // The message names the file and line, in the form editors turn into a link.
    FileHandle.standardError.write(Data("error: \((error as NSError).localizedDescription)\n".utf8))
    exit(1)
}
