import SandboxJSON
import Testing

@Suite("JSON members")
struct JSONMembersTests {
    @Test func membersComeInTheOrderWrittenRepeatedKeysEachTime() throws {
        let text = #" {"b": 1, "a": {"c": [2]}, "b": "x"} "#
        let members = try #require(try JSON.parseMembers(Array(text.utf8)))
        #expect(members.map(\.key) == ["b", "a", "b"])
        #expect(members.map(\.value) == [1, ["c": [2]], "x"])
        // The last of a repeated key is the value parse keeps.
        #expect(try JSON.parse(text)["b"] == members.last { $0.key == "b" }?.value)
        #expect(try JSON.parseMembers(Array("{}".utf8))?.isEmpty == true)
    }

    @Test(arguments: ["[]", "1", #""{}""#, "null", " [ {} ] "])
    func anotherValueHasNoMembers(_ text: String) throws {
        #expect(try JSON.parseMembers(Array(text.utf8)) == nil)
    }

    @Test func readsInputsWithoutContiguousStorage() throws {
        let bytes = Array(#"{"k":"é"}"#.utf8)
        #expect(try JSON.parseMembers(bytes.lazy.map { $0 })?.first?.value == "é")
    }

    @Test(arguments: rejections)
    func rejectsAsParseDoes(_ rejection: Rejection) {
        do {
            _ = try JSON.parseMembers(rejection.input)
            Issue.record("accepted")
        } catch {
            #expect(error.offset == rejection.offset)
            #expect(error.reason == rejection.reason)
        }
    }
}
