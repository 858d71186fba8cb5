extension Command {
    /// The words after the command, keeping "quoted phrases" together, for arguments that
    /// contain spaces: `add "Costa Rica" "North America"`.
    public var quotedWords: [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for character in rest {
            if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
