import SandboxContract
import SandboxWire

// `GET /sandbox/suite`: how far the steps of the suite run against this sandbox have come
// (`SuiteProgress`), or 404 when none runs (`serve`).

extension AdminAPI {
    func getSuite(_ request: HTTPRequest) -> HTTPResponse {
        guard let json = suite.json else { return Router.error(404, AdminMessage.noSuite) }
        return .json(json)
    }
}
