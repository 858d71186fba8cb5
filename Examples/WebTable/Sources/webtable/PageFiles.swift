import Foundation
import Hummingbird
import NIOCore

/// The page and its script and style sheet, read once from the program's resources.
///
/// Plain files, no build step: what is in `Sources/webtable/Page/` is what the browser runs.
struct PageFiles: Sendable {
    /// URL path to the file's response, e.g. `/table.js`.
    private let files: [String: (type: String, body: ByteBuffer)]

    init() throws {
        guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw PageFilesMissing(path: Bundle.module.bundlePath)
        }
        let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"]
        var files: [String: (type: String, body: ByteBuffer)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            guard let type = types[(name as NSString).pathExtension] else { continue }
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            files["/" + name] = (type, ByteBuffer(bytes: data))
        }
        files["/"] = files["/index.html"]
        self.files = files
    }

    /// The file at `path`, or nil for any other path.
    func response(for path: String) -> Response? {
        guard let file = files[path] else { return nil }
        // The page is small and changes with the program; no cache keeps an old script alive.
        return Response(status: .ok, headers: [.contentType: file.type, .cacheControl: "no-store"],
                        body: .init(byteBuffer: file.body))
    }
}

/// The program was moved without its resource bundle.
struct PageFilesMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "the page's files are missing from \(path)" }
}
