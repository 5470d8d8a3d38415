import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport

// Every API's accounts in one admin resource, as each dialect's `AccountKind` shows and takes them:
// - `GET /sandbox/accounts`: `{"accounts": {"d24": [...], "mannco": [...], "prism": [...]}}`;
// - `GET /sandbox/accounts/{dialect}`: `{"accounts": [...]}`;
// - `GET /sandbox/accounts/{dialect}/{id}`: one account, or 404;
// - `PUT /sandbox/accounts/{dialect}/{id}`: creates it (201) or changes the members given (200).
// Each API's older path answers as before: `GET /sandbox/merchants` (`{"merchants": [...]}`) and
// `PUT /sandbox/merchants/{login}`, `/sandbox/prism-merchants`, `/sandbox/users`.

extension AdminAPI {
    func listAccounts(_ request: HTTPRequest) -> HTTPResponse {
        .json(["accounts": .object(Dictionary(uniqueKeysWithValues: accountKinds.map { dialect, kind in (dialect, .array(list(dialect, kind))) }))])
    }

    func listAccountsOfAPI(_ request: HTTPRequest) -> HTTPResponse {
        guard let (dialect, kind) = kind(request) else { return unknownDialect(request) }
        return .json(["accounts": .array(list(dialect, kind))])
    }

    func getAccount(_ request: HTTPRequest) -> HTTPResponse {
        guard let (dialect, kind) = kind(request) else { return unknownDialect(request) }
        let id = request.parameters["id"] ?? ""
        guard let account = bank.account(id: id), account.dialect == dialect else {
            return Router.error(404, AccountsResource.noAccount(dialect, id))
        }
        return .json(kind.json(account))
    }

    func putAccount(_ request: HTTPRequest) -> HTTPResponse {
        guard let (dialect, kind) = kind(request) else { return unknownDialect(request) }
        return put(request, id: request.parameters["id"], dialect: dialect, kind: kind)
    }

    /// Each API's older path (`AccountKind.legacyOperations`; its API's part of the OpenAPI document
    /// describes it), by the name of the API.
    func registerLegacyAccounts(in router: inout Router) {
        for (dialect, kind) in accountKinds.sorted(by: { $0.key < $1.key }) {
            guard let (list, put) = kind.legacyOperations.map({ ($0.list.route, $0.put.route) }),
                  let listMember = kind.legacyPath?.listMember else { continue }
            router.add(list) { _ in .json([listMember: .array(self.list(dialect, kind))]) }
            router.add(put) { request in
                self.put(request, id: request.parameters[kind.idName], dialect: dialect, kind: kind)
            }
        }
    }

    /// The accounts of `dialect`, as it shows them, in the bank's order.
    private func list(_ dialect: String, _ kind: AccountKind) -> [JSON] {
        bank.accounts.filter { $0.dialect == dialect }.map(kind.json)
    }

    /// Creates the account `id` of `dialect`, or changes the members `request`'s body gives.
    private func put(_ request: HTTPRequest, id: String?, dialect: String, kind: AccountKind) -> HTTPResponse {
        guard let id, !id.isEmpty, id.count <= kind.idLimit else { return Router.error(400, kind.idRefusal) }
        guard case .object(let body)? = try? JSON.parse(request.body) else { return Router.error(400, AdminMessage.notAnObject) }
        if let member = kind.idMember, let given = body[member], given != .string(id) {
            return Router.error(400, AdminMessage.idMember(member, id: id))
        }
        if let conflict = kind.conflict(id, body, bank) { return Router.error(409, conflict) }
        do throws(Bank.AccountChangeError) {
            let (account, created) = try bank.updateAccount(id: id, creatingFrom: kind.template(id)) { account in
                guard account.dialect == dialect else { return AdminMessage.otherAPIsAccount(id, of: account.dialect) }
                return kind.apply(body, &account) ?? kind.lacking(account)
            }
            return .json(kind.json(account), status: created ? 201 : 200)
        } catch .invalid(let problem) {
            return Router.error(400, problem)
        } catch {
            return Router.error(409, kind.currencyKept)
        }
    }

    /// The dialect the request's path names, with its accounts; nil when it serves none of that name.
    private func kind(_ request: HTTPRequest) -> (String, AccountKind)? {
        guard let dialect = request.parameters["dialect"], let kind = accountKinds[dialect] else { return nil }
        return (dialect, kind)
    }

    private func unknownDialect(_ request: HTTPRequest) -> HTTPResponse {
        Router.error(404, AccountsResource.unknownAPI(request.parameters["dialect"] ?? "", served: accountKinds.keys.sorted()))
    }
}
