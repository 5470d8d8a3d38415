/// Payouts by id. Ids are handed out in sequence from the first, so a payout's place is its id
/// minus the first: no hashing, and creation order for free.
struct PayoutTable: Sendable {
    let firstID: Int
    private(set) var all: [Payout] = []

    init(firstID: Int) {
        self.firstID = firstID
    }

    /// The payout with `id`, or nil; setting replaces an existing one.
    subscript(id: Int) -> Payout? {
        get {
            let index = id - firstID
            return all.indices.contains(index) ? all[index] : nil
        }
        set {
            let index = id - firstID
            guard let newValue, all.indices.contains(index) else { return }
            all[index] = newValue
        }
    }

    /// Changes the payout with `id` in place (no copy of it or its history); nil if there is none.
    mutating func modify<Result, Failure: Error>(_ id: Int, _ body: (inout Payout) throws(Failure) -> Result) throws(Failure) -> Result? {
        let index = id - firstID
        guard all.indices.contains(index) else { return nil }
        return try body(&all[index])
    }

    /// The id the next payout gets.
    var nextID: Int { firstID + all.count }

    /// Adds the next payout; its id must be the next in sequence.
    mutating func append(_ payout: Payout) {
        precondition(payout.id == nextID, "payout ids are handed out in sequence")
        all.append(payout)
    }
}
