/// The text of one of the dashboard's files (HTML, CSS, JavaScript, each a resource compiled into
/// the binary: `PackageResources`), with its placeholders filled in. A placeholder is a name in
/// capitals between double underscores (`__FORMS__`, `__HEADER_API_KEY__`): text in HTML, an
/// identifier in JavaScript, so a file with placeholders is still valid JavaScript (`node --check`).
/// A placeholder without a value is a programmer's error: it traps the first time the page is
/// asked for (the tests ask). A file is served as it is, byte for byte, so one that ends without
/// a newline is one whose text the next file's follows on the same line.
package enum DashboardFile {
    /// `file`'s text, each placeholder replaced by its value in `values` (by its name, without
    /// the underscores). Values are not searched for placeholders.
    package static func text(_ file: [UInt8], filling values: [String: String] = [:]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(file.count)
        var index = 0
        while index < file.count {
            if let (name, end) = placeholder(in: file, at: index) {
                guard let value = values[name] else { preconditionFailure("a dashboard file's placeholder __\(name)__ has no value") }
                text += value.utf8
                index = end
            } else {
                text.append(file[index])
                index += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The placeholder at `start` (`__NAME__`: capitals and digits, single underscores between
    /// them), its name and the index after it; nil for none.
    static func placeholder(in file: [UInt8], at start: Int) -> (String, Int)? {
        let underscore = UInt8(ascii: "_")
        let capitals = UInt8(ascii: "A")...UInt8(ascii: "Z"), digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        func isNameByte(_ byte: UInt8) -> Bool { capitals.contains(byte) || digits.contains(byte) }
        guard start + 4 < file.count, file[start] == underscore, file[start + 1] == underscore, capitals.contains(file[start + 2]) else { return nil }
        var index = start + 2
        while index < file.count {
            if isNameByte(file[index]) {
                index += 1
            } else if file[index] == underscore, index + 1 < file.count, isNameByte(file[index + 1]) {
                index += 1
            } else {
                break
            }
        }
        guard index + 1 < file.count, file[index] == underscore, file[index + 1] == underscore else { return nil }
        return (String(decoding: file[(start + 2)..<index], as: UTF8.self), index + 2)
    }
}
