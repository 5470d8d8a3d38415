@testable import SandboxSupport
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

    /// Known keys change nothing but where a key's string comes from: written escaped, in another
    /// case or with other bytes, a key is read as ever; a value equal to a known key stays a value.
    @Test func knownKeysReadTheSameMembers() throws {
        let keys = JSON.KnownKeys(["login", "amount", "Kelvin", "", "login"])
        // "\u{212A}elvin" is written raw: its Kelvin sign is canonically equivalent to "K" (String's
        // == calls them equal), but its bytes are not the known key's, and stay the client's.
        let text = #"{"login":"amount","\u0061mount":1,"Amount":2,"amoun":3,"\#u{212A}elvin":4,"":5,"nested":{"login":6},"amount":"x"}"#
        let read = try #require(try JSON.parseMembers(Array(text.utf8), keys: keys))
        let plain = try #require(try JSON.parseMembers(Array(text.utf8)))
        #expect(read == plain)
        #expect(read.map { Array($0.key.utf8) } == ["login", "amount", "Amount", "amoun", "\u{212A}elvin", "", "nested",
                                                    "amount"].map { Array($0.utf8) })
        #expect(read[0].value == "amount" && read[6].value == ["login": 6])
    }

    @Test(arguments: ["[]", "1", #""{}""#, "null", " [ {} ] "])
    func anotherValueHasNoMembers(_ text: String) throws {
        #expect(try JSON.parseMembers(Array(text.utf8)) == nil)
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
