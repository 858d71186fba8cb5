extension CommandLoop {
    /// Prints one screen: a message, the lines that say what changed, then `body` (a table).
    /// In a terminal the screen replaces the last one; in a transcript it follows it.
    public func printScreen(_ message: String?, changes: [String], body: String) {
        if isInteractive { print("\u{1B}[2J\u{1B}[H", terminator: "") }
        if let message { print(message) }
        if !changes.isEmpty { print(changes.joined(separator: "\n")) }
        print(body)
    }
}
