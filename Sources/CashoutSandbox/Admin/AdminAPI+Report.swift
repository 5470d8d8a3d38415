import SandboxHTTP
import SandboxReport

// `GET /sandbox/report[?account=ID]`: the integration report (the Testing your app guide, "What your app gets wrong").

extension AdminAPI {
    func registerReport(in router: inout Router) {
        router.add("GET /sandbox/report") { request in
            let (status, json) = IntegrationReport.answer(bank: bank, journal: requests, sender: sender, dialects: dialects, account: request.query("account"))
            return .json(json, status: status)
        }
    }
}
