import CashoutSandbox
import Dispatch
import FoundationEssentials
import SandboxContract
import SandboxWire
import SandboxSupport
import Synchronization

extension ScenarioRunner {
    /// Many creates through the sandbox's handler in-process (no socket): a load scenario's bulk.
    /// The create is prepared once; only the reference changes. Requests are built and signed in
    /// batches on every core, each batch while the one before it is sent, one by one in order (so
    /// ids and outcomes stay the same from run to run).
    mutating func createMany(_ count: Int, _ given: [String: JSON], merchant: String?, prefix: String) -> String? {
        let create: ScenarioCreate
        do { create = try prepareCreate(given, account: merchant, action: "create_cashouts") } catch { return error.message }
        if let fixed = create.fixedReference { return "create_cashouts: \"fields\" give every create the reference \(fixed)" }
        let request = { @Sendable (index: Int) -> HTTPRequest in create.request("\(prefix)-\(index)") }
        let batches = stride(from: 1, through: count, by: CreateBatch.size).map { $0 ... min(count, $0 + CreateBatch.size - 1) }
        var next = batches.first.map { CreateBatch($0, request) }
        for (number, indices) in batches.enumerated() {
            guard let requests = next?.requests() else { break }
            next = batches.indices.contains(number + 1) ? CreateBatch(batches[number + 1], request) : nil
            for (index, request) in zip(indices, requests) {
                let response = sandbox.respond(to: request)
                guard response.status == 200 else {
                    return "create_cashouts: create \(index) of \(count): expected status 200, got \(response.status) \(response.bodyText)"
                }
            }
        }
        return nil
    }
}

/// The signed requests of one batch of creates, built in the background as soon as it is made.
private final class CreateBatch: Sendable {
    /// Two batches are alive at once, the one sent and the next one built meanwhile: 4096 requests
    /// (a few MB) in all.
    static let size = 2048

    private let built = Mutex<[HTTPRequest]>([])
    private let done = DispatchSemaphore(value: 0)

    init(_ indices: ClosedRange<Int>, _ make: @Sendable @escaping (Int) -> HTTPRequest) {
        DispatchQueue.global().async { [self] in
            let requests = Self.build(indices, make)
            built.withLock { $0 = requests }
            done.signal()
        }
    }

    /// The requests in order, once built (ask once: they are handed over).
    func requests() -> [HTTPRequest] {
        done.wait()
        return built.withLock { requests in
            defer { requests = [] }
            return requests
        }
    }

    /// `make` applied to every index, split across the cores; results in order.
    private static func build(_ indices: ClosedRange<Int>, _ make: @Sendable @escaping (Int) -> HTTPRequest) -> [HTTPRequest] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, indices.count / 256))
        let parts = Mutex([[HTTPRequest]](repeating: [], count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let share = indices.count / workers, start = indices.lowerBound + worker * share
            let end = worker == workers - 1 ? indices.upperBound : start + share - 1
            let part = (start ... end).map(make)
            parts.withLock { $0[worker] = part }
        }
        return parts.withLock { $0.flatMap { $0 } }
    }
}
