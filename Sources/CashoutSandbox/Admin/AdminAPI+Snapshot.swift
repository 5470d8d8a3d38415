import SandboxBank
import SandboxHTTP
import SandboxJSON
import SandboxScenario
import SandboxState

// Moving the whole state between sandboxes: `GET /sandbox/snapshot` exports it as a file,
// `PUT /sandbox/snapshot` puts a file's state in force.

extension AdminAPI {
    /// The largest snapshot `PUT /sandbox/snapshot` takes (other requests keep `--max-body`).
    static let maximumSnapshotBytes = 512 << 20
    /// The route that takes a snapshot, whose body the server spools to a file (`router.add` spells
    /// it out: OpenAPIDocumentTests reads the routes from its calls).
    static let snapshotUpload = "PUT /sandbox/snapshot"

    func registerSnapshot(in router: inout Router) {
        router.add("GET /sandbox/snapshot") { _ in
            .later(on: worker) {
                let snapshot = snapshot()
                let stamp = snapshot.bank.time.iso8601.replacingOccurrences(of: ":", with: "-")
                return HTTPResponse(headers: ["Content-Type": SandboxSnapshot.contentType,
                                              "Content-Disposition": "attachment; filename=\"cashout-sandbox-\(stamp).snapshot\""],
                                    body: snapshot.file())
            }
        }
        router.add("PUT /sandbox/snapshot") { request in .later(on: worker) { restore(request) } }
    }

    /// Everything now: the scenarios loaded through the admin API and the bank with its clock.
    /// `whileLocked` runs while nothing can change (run it on `worker`, where scenarios load).
    func snapshot(whileLocked: () -> Void = {}) -> SandboxSnapshot {
        SandboxSnapshot(scenarios: layers.sources, bank: bank.snapshot { _ in whileLocked() })
    }

    /// `{"status":"restored","cashouts":3,"merchants":["sandbox_login"],"scenarios":1,"clock":"…"}`
    private func restore(_ request: HTTPRequest) -> HTTPResponse {
        let snapshot: SandboxSnapshot
        do {
            // Spooled by the server (read a part at a time), or in memory when handed over in process.
            snapshot = try request.spooledBody?.withFileDescriptor { try SandboxSnapshot(reading: $0, formats: Sandbox.bankFormat) }
                ?? SandboxSnapshot(file: request.body, formats: Sandbox.bankFormat)
            try restore(snapshot) { journal?.record(snapshot) }
        } catch let error as SandboxSnapshot.Invalid {
            return Router.error(400, error.description)
        } catch {
            return Router.error(500, "the snapshot could not be read: \(error)")
        }
        eventLog?.restored(cashouts: snapshot.bank.payoutCount, clock: snapshot.bank.time)
        return .json(["status": "restored", "cashouts": .number(snapshot.bank.payoutCount),
                      "merchants": .array(snapshot.bank.accounts.map { .string($0.id) }),
                      "scenarios": .number(snapshot.scenarios.count), "clock": .string(snapshot.bank.time.iso8601)])
    }

    /// Puts `snapshot` in force: the scenarios the sandbox started with and the snapshot's on top,
    /// its merchants, cashouts, ledger, webhooks, schedule and clock; the sinks are emptied.
    /// `whileLocked` runs while nothing else can change (to journal the restore in order).
    /// `clockBack` false keeps a clock that is later than the snapshot's (replaying a journal on a
    /// real-time clock, which goes on from now).
    func restore(_ snapshot: SandboxSnapshot, clockBack: Bool = true, whileLocked: () -> Void = {}) throws(SandboxSnapshot.Invalid) {
        var scenarios: [(Scenario, source: [UInt8])] = []
        for (index, source) in snapshot.scenarios.enumerated() {
            do {
                scenarios.append((try ScenarioLoader.load(source, file: "scenario \(index + 1) of the snapshot", vocabulary: vocabulary), source))
            } catch {
                throw .init(description: "scenario \(index + 1) of the snapshot does not load here: \(error)")
            }
        }
        let setup = layers.replace(with: scenarios)
        bank.reconfigure { configuration in
            configuration = initial.bank
            setup.configure(&configuration)
        }
        sinks.clearAll()
        apply(setup, sinksOf: setup.sinks)
        bank.restore(snapshot.bank, clockBack: clockBack, whileLocked: whileLocked)
    }
}
