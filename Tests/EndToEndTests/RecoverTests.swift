import Foundation
import Glibc
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxPersistence
import TestHelpers
import Testing

/// A journal with a record that cannot be replayed (a bug, a file edited by hand) does not leave
/// the user stuck: the error says which record, where and of what kind, and `serve --recover`
/// starts from the records before it and keeps the rest aside.
@Suite struct RecoverTests {
    @Test func anUnreplayableRecordIsNamedAndRecoverStartsFromTheRecordsBeforeIt() throws {
        let folder = NSTemporaryDirectory() + "recover-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try RunningBinary(["serve", "--port", "0", "--host", "127.0.0.1", "--clock", "manual", "--state-dir", folder])
        let url = try #require(first.url)
        #expect(try SignedCreate.send(to: url, externalID: "kept").status == 200)
        #expect(first.terminate() == 0)

        // A timeline step of a payout the journal never created, then a record after it.
        let path = "\(folder)/journal.log"
        let offset = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        var tail: [UInt8] = []
        for record in [BankRecord.stepRan(payoutID: 999, step: 0, at: VirtualTime(milliseconds: 0)), .clock(to: VirtualTime(milliseconds: 0))] {
            JournalFormat.appendRecord(to: &tail) { bytes in
                bytes.append(0)  // the state journal's kind: a bank record
                record.encode(into: &bytes)
            }
        }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(tail))
        handle.closeFile()

        let (status, _, error) = try RunningBinary.run(["serve", "--port", "0", "--clock", "manual", "--state-dir", folder])
        #expect(status == 1)
        #expect(error.contains("error: cannot start: \(path): record "))
        #expect(error.contains(", at byte \(offset), cannot be replayed: bank record 'timeline step ran': no payout 999 for a timeline step\n"))
        #expect(error.contains("hint: 'serve --recover' starts from the records before it and keeps it and the rest in \(path).unreplayed-\(offset)"))

        let recovered = try RunningBinary(["serve", "--port", "0", "--host", "127.0.0.1", "--clock", "manual", "--state-dir", folder, "--recover"])
        let recoveredURL = try #require(recovered.url)
        let kept = try TestHTTP.send(method: "GET", url: recoveredURL + "/sandbox/cashouts/1000001")
        #expect(kept.status == 200 && kept.bodyText.contains(#""external_id":"kept""#))
        #expect(recovered.stderr.contains("warning: journal: record "))
        #expect(recovered.stderr.contains("cannot be replayed (bank record 'timeline step ran': no payout 999 for a timeline step) at "
                                          + "byte \(offset)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(path).unreplayed-\(offset)")) == Data(tail))
        #expect(recovered.terminate() == 0)
    }

    @Test func recoverNeedsAStateDirectory() throws {
        let (status, _, error) = try RunningBinary.run(["serve", "--recover"])
        #expect(status == 2)
        #expect(error.hasPrefix("error: option '--recover' needs '--state-dir DIR'"))
    }
}
