/// A payout's fields kept as a template: the reference's value left empty, so that payouts alike
/// but for their reference share one copy (`Payout.Shared`), and put back when they are read.
extension Fields {
    /// Where the first field whose value equals `value` is: its place among the fields, and its
    /// value's bytes with the length before them (what `emptied(at:)` empties).
    func place(ofValue value: String) -> (place: Int, cut: Range<Int>)? {
        var offset = 0, place = 0
        while let (_, found) = Self.field(in: bytes, at: &offset) {
            if bytes[found].elementsEqual(value.utf8) { return (place, (found.lowerBound - Self.varintLength(found.count)) ..< found.upperBound) }
            place += 1
        }
        return nil
    }

    /// These fields with the value at `cut` (`place(ofValue:)`) left empty; `filling(_:at:)` puts
    /// it back.
    func emptied(at cut: Range<Int>) -> Fields {
        var emptied: [UInt8] = []
        emptied.reserveCapacity(bytes.count - cut.count + 1)  // one buffer, of just its size
        emptied += bytes[..<cut.lowerBound]
        emptied.append(0)
        emptied += bytes[cut.upperBound...]
        return Fields(packed: emptied)
    }

    /// Whether `template` is `emptied(at: cut)`, told without making that.
    func isEmptied(as template: Fields, at cut: Range<Int>) -> Bool {
        guard template.bytes.count == bytes.count - cut.count + 1 else { return false }
        return bytes.withUnsafeBufferPointer { fields in
            template.bytes.withUnsafeBufferPointer { template in
                let before = cut.lowerBound
                return UnsafeBufferPointer(rebasing: template[..<before]).same(as: UnsafeBufferPointer(rebasing: fields[..<before]))
                    && template[before] == 0
                    && UnsafeBufferPointer(rebasing: template[(before + 1)...]).same(as: UnsafeBufferPointer(rebasing: fields[cut.upperBound...]))
            }
        }
    }

    /// These fields with `value` as the value of the one at `place` (left empty by `emptied(at:)`).
    func filling(_ value: String, at place: Int) -> Fields {
        var offset = 0
        for _ in 0 ..< place { _ = Self.field(in: bytes, at: &offset) }
        guard let (_, empty) = Self.field(in: bytes, at: &offset), empty.isEmpty else { preconditionFailure("no empty field at \(place)") }
        var filled: [UInt8] = []
        filled.reserveCapacity(bytes.count + value.utf8.count + 2)
        filled += bytes[..<(empty.lowerBound - 1)]
        Self.appendText(value, to: &filled)
        filled += bytes[empty.upperBound...]
        return Fields(packed: filled)
    }
}
