@testable import SandboxBank
import Testing

/// `NameTable`: the numbers of the field names a bank keeps, looked up by their bytes.
@Suite struct NameTableTests {
    @Test func namesPastATablesCapacityKeepNoNumberWhateverOrderTheyComeIn() {
        let table = NameTable(capacity: 2)
        func numbers(_ names: [String]) -> [Int?] {
            let bytes = names.map { Array($0.utf8) }
            return withBuffers(bytes) { table.numbers(ofUTF8: $0) }
        }
        #expect(numbers(["a", "b", "c"]) == [1, 2, nil])
        #expect(numbers(["a", "b", "c"]) == [1, 2, nil])  // read by place
        #expect(numbers(["c", "a"]) == [nil, 1])  // other places
        #expect(numbers(["b"]) == [2])
        #expect(numbers(["a", "b", "c", "d"]) == [1, 2, nil, nil])
    }

    /// `body` with a buffer over each of `arrays` (valid during the call).
    private func withBuffers<Result>(_ arrays: [[UInt8]], _ body: ([UnsafeBufferPointer<UInt8>]) -> Result) -> Result {
        var buffers: [UnsafeBufferPointer<UInt8>] = []
        func next(_ index: Int) -> Result {
            guard index < arrays.count else { return body(buffers) }
            return arrays[index].withUnsafeBufferPointer { buffer in
                buffers.append(buffer)
                return next(index + 1)
            }
        }
        return next(0)
    }
}
