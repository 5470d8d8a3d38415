/// The sandbox's own pages and documents, each written once under its operation id: the
/// dashboard and its assets, the OpenAPI document and the Postman collection (`APIDocs`).
enum DocumentRoute {
    package static let dashboard = APIOperation("getDashboard", .http("GET", "/"), role: .document)
    static let dashboardStyle = APIOperation("getDashboardStyle", .http("GET", "/dashboard.css"), role: .document)
    static let dashboardScript = APIOperation("getDashboardScript", .http("GET", "/dashboard.js"), role: .document)
    static let dashboardIcon = APIOperation("getDashboardIcon", .http("GET", "/favicon.ico"), role: .document)
    static let openAPI = APIOperation("getOpenAPIDocument", .http("GET", "/openapi.json"), role: .document)
    static let postman = APIOperation("getPostmanCollection", .http("GET", "/postman.json"), role: .document)
    static let postmanEnvironment = APIOperation("getPostmanEnvironment", .http("GET", "/postman/environment.json"), role: .document)

    /// Every one, in the order the document lists them.
    package static let all = [dashboard, dashboardStyle, dashboardScript, dashboardIcon, openAPI, postman, postmanEnvironment]
}
