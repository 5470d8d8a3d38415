package import SandboxContract
import SandboxBank
package import SandboxD24
import SandboxWire
import SandboxMannco
import SandboxPersistence
import SandboxPrism

extension Sandbox {
    /// The APIs a sandbox serves unless its configuration names others (new values each time:
    /// a dialect keeps per-sandbox caches, such as prepared signing keys).
    package static var standardDialects: [any Dialect] { [D24Dialect(), ManncoDialect(), PrismDialect()] }

    /// The standard dialects' names, in order (to tell a standard list without building one).
    static let standardNames = standardDialects.map(\.name)

    /// The standard dialects' built-in scenarios, loaded once.
    static let standardSetup = standardDialects.builtInSetup(vocabulary: standardVocabulary)

    /// What scenario files may say in the standard dialects (for loading one before there is a
    /// sandbox).
    package static let standardVocabulary = standardDialects.scenarioVocabulary

    /// How to read the bank's binary form of `version`: before version 3, every account and
    /// payout was D24's.
    @Sendable static func bankFormat(version: Int) -> BankFormat {
        BankFormat(version: version, legacyDialect: D24Dialect.name) { credentials, addresses in
            D24Merchant.settings(pass: credentials[0], secret: credentials[1], readOnlyKey: credentials[2], allowedIPs: addresses)
        }
    }
}

extension Sandbox {
    /// What a sandbox serves besides its payout APIs, as the documents describe it (for
    /// `cashout-sandbox openapi`, which makes the document without a sandbox).
    package static var servedEndpoints: [EndpointDescription] { APIDocs.sandboxEndpoints(admin: AdminAPI.self) }

    /// The D24 merchant with `login` (nil for none, or for another API's account), as it is now.
    package func d24Merchant(_ login: String) -> D24Merchant? {
        bank.account(id: login).flatMap(D24Merchant.init(owned:))
    }

    /// Each account as its dialect shows it in the start-up log.
    public var accountLines: [(text: String, event: String, fields: [(String, String)])] {
        let dialects = self.dialects
        return bank.accounts.compactMap { account in dialects[account.dialect]?.startupLine(account) }
    }
}

extension Sandbox.Configuration {
    /// What scenario files may say in this configuration's dialects (for loading them:
    /// `ScenarioLoader.load(file:vocabulary:)`).
    package var scenarioVocabulary: ScenarioVocabulary {
        dialects.map(\.name) == Sandbox.standardNames ? Sandbox.standardVocabulary : dialects.scenarioVocabulary
    }
}

extension [any Dialect] {
    /// What their scenario files may say.
    var scenarioVocabulary: ScenarioVocabulary {
        reduce(ScenarioVocabulary()) { vocabulary, dialect in
            var merged = vocabulary.merging(dialect.vocabulary)
            for check in dialect.asReportingDialect?.integrationChecks ?? [] {
                merged.reportChecks[check.id] = Swift.min(merged.reportChecks[check.id] ?? check.since, check.since)
            }
            return merged
        }
    }

    /// Their gRPC services' files, each file once (two dialects may share an import).
    var grpcFiles: [ProtoFile] {
        var seen = Set<String>()
        return flatMap(\.grpcFiles).filter { seen.insert($0.name).inserted }
    }

    /// Their gRPC services, as `grpcFiles` has them, without reading the files.
    var grpcServices: [ServiceSchema] {
        var seen = Set<String>()
        return flatMap(\.grpcServices).filter { seen.insert($0.fullName).inserted }
    }

    /// Their default accounts.
    var defaultAccounts: [Account] { flatMap(\.defaultAccounts) }

    /// Their built-in scenarios, layered in their order, read with their `vocabulary` (theirs
    /// unless given: made once, a start reads it for more than one thing) when their rules are
    /// first needed (`ScenarioSetup(builtIn:)`).
    func builtInSetup(vocabulary: ScenarioVocabulary? = nil) -> ScenarioSetup {
        let vocabulary = vocabulary ?? scenarioVocabulary
        let texts = compactMap { dialect in dialect.asScenarioDialect?.builtInScenarioText.map { (dialect: dialect.name, text: $0) } }
        var setup = ScenarioSetup {
            texts.map { builtIn in
                do {
                    var scenario = try ScenarioLoader.load([UInt8](builtIn.text.utf8), file: "the built-in scenario of \(builtIn.dialect)",
                                                           vocabulary: vocabulary)
                    scenario.markBuiltIn()
                    return scenario
                } catch {
                    preconditionFailure("\(error)")
                }
            }
        }
        setup.contentFields = vocabulary.ruleFields
        return setup
    }

    /// Registers their routes and gRPC handlers; answers the dialect each route belongs to, by
    /// route name (`"POST /v3/cashout"`, `"POST /types.PayoutService/Create"`).
    func register(in router: inout Router, grpc: inout GRPCServer, bank: Bank) -> [String: String] {
        var owners: [String: String] = [:]
        for dialect in self {
            let before = router.routeNames.count
            dialect.register(in: &router, bank: bank)
            dialect.registerGRPC(in: &grpc, bank: bank)
            for name in router.routeNames[before...] { owners[name] = dialect.name }
            for service in dialect.grpcServices {
                for method in service.methods { owners[APIOperation.grpcRoute(service: service.fullName, method: method.name)] = dialect.name }
            }
        }
        return owners
    }

    /// The dialect of that name, by which a payout's notifications are rendered.
    var byName: [String: any Dialect] { Dictionary(map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }

    /// Their parts of the OpenAPI document and the Postman collection, in their order, each with
    /// its name, its accounts in the admin API's `/sandbox/accounts/{dialect}`, its ledger's
    /// reference key, its words for the statuses and its scenario vocabulary, as the admin API's
    /// handlers read them.
    package var documents: [APIDocsFragment] {
        compactMap { dialect -> APIDocsFragment? in
            guard var fragment = dialect.asDocumentedDialect?.docs else { return nil }
            fragment.dialect = dialect.name
            fragment.ledgerReference = dialect.asReportingDialect?.ledgerTerms.map { ($0.referenceKey, $0.referenceMeaning) }
            fragment.statusWords = PayoutStatus.allCases.compactMap(dialect.statusWord)
            fragment.scenarioVocabulary = [dialect].scenarioVocabulary
            if let kind = dialect.accounts, let (schema, update) = kind.schemaNames {
                fragment.accounts = AccountsDocs(dialect: dialect.name, schema: schema, update: update, legacyPath: kind.legacyPath?.path,
                                                 exampleID: kind.defaults.first?.id ?? "acme", currencyKept: kind.currencyKept)
            }
            return fragment
        }
    }

    /// Their parts of the dashboard, in their order.
    var dashboardParts: [DashboardPart] { compactMap { $0.asDashboardDialect?.dashboard } }

    /// Every operation a client of the sandbox calls: the admin API's, and each API's with its
    /// accounts' older paths (the dashboard's table of operations; with `DocumentRoute.all`,
    /// every operation the sandbox serves).
    var operations: [APIOperation] {
        AdminRoute.all + flatMap { dialect in dialect.operations + (dialect.accounts?.legacyOperations.map { [$0.list, $0.put] } ?? []) }
    }
}
