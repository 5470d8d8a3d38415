package import SandboxSupport

/// What one payout API adds to the sandbox's documents: its part of the OpenAPI document (a tag,
/// paths, schemas, security schemes) and of the Postman collection (folders, variables, a
/// collection-level script). A dialect gives one (`Dialect.docs`); the documents are assembled
/// from the dialects served, in their order, around the admin API's own part.
package struct APIDocsFragment: Sendable {
    /// The OpenAPI tag of its operations (`D24`).
    var tag: String
    /// Its name in titles (`D24 Cashouts API v3`).
    var title: String
    /// A paragraph of the OpenAPI document's description: how its requests authenticate.
    var overview: String
    /// Paragraphs of the Postman collection's description: its variables and its script.
    var postmanOverview: String
    /// Its endpoints' routes and descriptions (`Endpoint.description`), in the order it serves them.
    package var endpoints: [EndpointDescription]
    var schemas: [String: JSON]
    var securitySchemes: [String: JSON]
    /// Its Postman folders, in order.
    var folders: [PostmanCollection.Folder]
    /// Its collection and environment variables (an account's credentials), secret or not.
    package var variables: [PostmanCollection.Variable]
    /// Collection variables its requests' scripts set as a run goes.
    var sessionVariables: [String]
    /// Lines of the collection's pre-request script (signing its requests), run before every request.
    var prerequest: [String]
    /// A create of one of its payouts for the admin folder: the item's name, the collection
    /// variable that keeps the new payout's id, and whether the bank must leave it PENDING (the
    /// API's magic value for that), so that requests acting on a pending payout pass however long
    /// a person takes between them.
    package var create: (@Sendable (_ name: String, _ idVariable: String, _ staysPending: Bool) -> PostmanCollection.Item)?
    /// Its default account's id as the admin folder's requests write it (D24: `{{apiKey}}`).
    package var accountVariable: String?
    /// Its accounts in the admin API's `/sandbox/accounts/{dialect}`; nil for none.
    package var accounts: AccountsDocs?
    /// Its own words for the statuses (`Dialect.statusWord`: Mannco's `completed`), which
    /// `GET /sandbox/cashouts?status=` takes beside the sandbox's names.
    package var statusWords: [String] = []
    /// What it adds to scenario files (its account sections, such as `merchants`, its rule fields,
    /// step actions...), which `POST /sandbox/scenario` takes beside the rest: the request body's
    /// schema is the scenario format's (scenarios/schema.json) in the vocabularies of the APIs served.
    package var scenarioVocabulary = ScenarioVocabulary()
    /// Its dialect's name (`Dialect.name`), which the admin API's `dialect` parameters take.
    package var dialect = ""
    /// The key of its payouts in a reconciliation's ledger and what it is (`LedgerTerms`); nil
    /// when it takes no ledger.
    package var ledgerReference: (key: String, meaning: String)?

    package init(tag: String, title: String, overview: String, postmanOverview: String, endpoints: [EndpointDescription], schemas: [String: JSON],
                 securitySchemes: [String: JSON], folders: [PostmanCollection.Folder], variables: [PostmanCollection.Variable],
                 sessionVariables: [String], prerequest: [String],
                 create: (@Sendable (_ name: String, _ idVariable: String, _ staysPending: Bool) -> PostmanCollection.Item)?,
                 accountVariable: String?, accounts: AccountsDocs? = nil) {
        self.tag = tag
        self.title = title
        self.overview = overview
        self.postmanOverview = postmanOverview
        self.endpoints = endpoints
        self.schemas = schemas
        self.securitySchemes = securitySchemes
        self.folders = folders
        self.variables = variables
        self.sessionVariables = sessionVariables
        self.prerequest = prerequest
        self.create = create
        self.accountVariable = accountVariable
        self.accounts = accounts
    }
}
