import Synchronization

/// Names numbered once in the process (from 1), so that what a bank holds a million of keeps a
/// byte or two per name rather than its text: field names (`Fields`), who changed a status
/// (`StatusChange.by`). Names come from the code and the scenarios; past `capacity` (names a
/// client made up), a name gets no number, and its holder keeps it as text.
package final class NameTable: Sendable {
    static let fieldNames = NameTable(capacity: 4096)
    static let actors = NameTable(capacity: Int(UInt8.max))

    private struct Table {
        var numbers: [String: Int] = [:]
        var names: [String] = []
        /// The name looked up last and its number, compared before any hashing: the same name
        /// comes again and again (the bank's own changes are all `bank`'s).
        var last: (name: String, number: Int)?
        /// The names numbered from UTF-8 lately, by their place in their list (the first
        /// `placesKept`), and their numbers.
        var lastUTF8: [(name: [UInt8], number: Int?)] = []
    }

    package let capacity: Int
    private let table = Mutex(Table())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// `name`'s number; a new name gets one when `adding` and there is room.
    package func number(of name: String, adding: Bool) -> Int? {
        table.withLock { table in number(of: name, adding: adding, in: &table) }
    }

    /// The numbers of `names`, new ones added while there is room, under the lock once.
    func numbers(of names: [String]) -> [Int?] {
        table.withLock { table in names.map { number(of: $0, adding: true, in: &table) } }
    }

    /// `numbers(of:)` for names read as UTF-8. The name read last at the same place of a list
    /// is compared first: a journal's payouts mostly repeat one request's names in one order, and
    /// need neither a string nor a hash for them.
    func numbers(ofUTF8 names: [UnsafeBufferPointer<UInt8>]) -> [Int?] {
        table.withLock { table in
            names.indices.map { place in
                if place < table.lastUTF8.count, table.lastUTF8[place].name.withUnsafeBufferPointer({ $0.same(as: names[place]) }) {
                    return table.lastUTF8[place].number
                }
                let number = number(of: String(decoding: names[place], as: UTF8.self), adding: true, in: &table)
                if place < table.lastUTF8.count {
                    table.lastUTF8[place] = (Array(names[place]), number)
                } else if place < Self.placesKept {
                    table.lastUTF8.append((Array(names[place]), number))
                }
                return number
            }
        }
    }

    /// How many places of the lists numbered from UTF-8 keep their last name (more than any API's
    /// request has fields).
    static let placesKept = 64

    private func number(of name: String, adding: Bool, in table: inout Table) -> Int? {
        if let last = table.last, last.name == name { return last.number }
        if let number = table.numbers[name] {
            table.last = (name, number)
            return number
        }
        guard adding, table.names.count < capacity else { return nil }
        table.names.append(name)
        table.numbers[name] = table.names.count
        table.last = (name, table.names.count)
        return table.names.count
    }

    /// The name numbered `number`.
    func name(_ number: Int) -> String {
        table.withLock { $0.names[number - 1] }
    }

    /// Every name with a number, the first being number 1.
    var all: [String] { table.withLock { $0.names } }
}
