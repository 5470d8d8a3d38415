extension String {
    /// The text with `prefix` after each line feed, in a `\r\n` too (a body an app sent may end
    /// its lines so; `replacing("\n", ...)` compares characters, and `\r\n` is one).
    func indentingLines(by prefix: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            scalars.append(scalar)
            if scalar == "\n" { scalars.append(contentsOf: prefix.unicodeScalars) }
        }
        return String(scalars)
    }
}
