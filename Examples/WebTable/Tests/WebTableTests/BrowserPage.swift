import Foundation

/// One browser tab, driven through its own DevTools session on the shared connection.
struct BrowserPage: Sendable {
    let devTools: DevToolsConnection
    let session: String

    /// A script threw in the page.
    struct ScriptError: Error, CustomStringConvertible {
        let description: String
    }

    /// Opens a blank tab and attaches to it; `Page` events are on before the first navigation,
    /// so every navigation of the tab shows up in `devTools.events`.
    static func open(in devTools: DevToolsConnection) async throws -> BrowserPage {
        let target = try await devTools.call("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"]?.string else { throw ScriptError(description: "no target in \(target)") }
        let attached = try await devTools.call("Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
        guard let session = attached["sessionId"]?.string else { throw ScriptError(description: "no session in \(attached)") }
        try await devTools.call("Page.enable", session: session)
        return BrowserPage(devTools: devTools, session: session)
    }

    /// Loads `url` and waits until the page has drawn the server's snapshot.
    func load(_ url: URL) async throws {
        try await devTools.call("Page.navigate", ["url": .string(url.absoluteString)], session: session)
        try await waitUntil("the page at \(url) to show its table") {
            try await evaluate("window.tableReady === true") == .bool(true)
        }
    }

    /// Evaluates `expression` in the page (awaiting a promise), returning its value as JSON.
    func evaluate(_ expression: String) async throws -> JSONValue {
        let reply = try await devTools.call(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true], session: session)
        if let exception = reply["exceptionDetails"] {
            throw ScriptError(description: "\(expression) threw: \(exception["exception"]?["description"] ?? exception)")
        }
        return reply["result"]?["value"] ?? .null
    }

    /// How many times this tab loaded a document from `origin` (main frame only), as the
    /// DevTools protocol saw it: 1 unless something reloaded the page.
    func navigations(to origin: URL) -> Int {
        devTools.events.filter { event in
            guard event["method"] == "Page.frameNavigated", event["sessionId"]?.string == session,
                  let frame = event["params"]?["frame"], frame["parentId"] == nil else { return false }
            return frame["url"]?.string?.hasPrefix(origin.absoluteString) == true
        }.count
    }

    /// The tab as a PNG image, the whole page and not only the visible part.
    func screenshot() async throws -> Data {
        let reply = try await devTools.call("Page.captureScreenshot", ["format": "png", "captureBeyondViewport": true], session: session)
        guard let base64 = reply["data"]?.string, let data = Data(base64Encoded: base64) else {
            throw ScriptError(description: "no image in the screenshot reply")
        }
        return data
    }
}
