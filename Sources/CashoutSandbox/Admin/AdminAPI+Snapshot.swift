import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport
import SandboxPersistence

// Moving the whole state between sandboxes: `GET /sandbox/snapshot` exports it as a file,
// `PUT /sandbox/snapshot` puts a file's state in force.

extension AdminAPI {
    /// The largest snapshot `PUT /sandbox/snapshot` takes (other requests keep `--max-body`).
    static let maximumSnapshotBytes = 512 << 20
    /// The route that takes a snapshot, whose body the server spools to a file.
    static let snapshotUpload = AdminRoute.putSnapshot.route

    func getSnapshot(_ request: HTTPRequest) -> HTTPResponse {
        .later(on: worker) {
            let snapshot = snapshot()
            let stamp = snapshot.bank.time.iso8601.replacing(":", with: "-")
            return HTTPResponse(headers: ["Content-Type": SandboxSnapshot.contentType,
                                          "Content-Disposition": "attachment; filename=\"cashout-sandbox-\(stamp).snapshot\""],
                                body: snapshot.file())
        }
    }

    func putSnapshot(_ request: HTTPRequest) -> HTTPResponse { .later(on: worker) { restore(request) } }

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
            snapshot = try request.spooledBody?.withFileDescriptor { try SandboxSnapshot(reading: $0, formats: bankFormat) }
                ?? SandboxSnapshot(file: request.body, formats: bankFormat)
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
    /// real-time clock, which goes on from now). `clearingSinks` false keeps what the sinks
    /// received (undoing a failed write: Sandbox+DiskFailure).
    func restore(_ snapshot: SandboxSnapshot, clockBack: Bool = true, clearingSinks: Bool = true,
                 whileLocked: () -> Void = {}) throws(SandboxSnapshot.Invalid) {
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
        if clearingSinks { sinks.clearAll() }
        apply(setup, sinksOf: setup.sinks)
        bank.restore(snapshot.bank, clockBack: clockBack, whileLocked: whileLocked)
        timelines.clear()  // the cashouts are the snapshot's: what happened to those of the same ids here is not theirs
    }

    /// An admin like this one, but over `bank` and parts of its own that nobody serves: what
    /// replays a journal's records to read back the state it holds (Sandbox+DiskFailure).
    func replaying(into bank: Bank) -> AdminAPI {
        let noFaults = FaultInjector(faults: [], seed: 0) { _, _, _, _, _ in RequestSubject(identity: "", account: nil, payout: nil) }
        return AdminAPI(bank: bank, sinks: SinkStore(), faults: noFaults, sender: sender,
                 initial: initial, layers: layers.fresh(), vocabulary: vocabulary, dialects: dialects,
                 requests: RequestLog(capacity: 0, bodyLimit: 0, grpc: GRPCServer(services: [], files: { [] })),
                 reports: ReportCache(), suite: SuiteProgress(), bankFormat: bankFormat)
    }
}
