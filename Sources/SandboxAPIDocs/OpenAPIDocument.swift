import SandboxJSON

/// The OpenAPI 3.1 description of every D24 and admin endpoint.
public enum OpenAPIDocument {
    /// The document, with `serverURL` as its server.
    public static func document(serverURL: String) -> JSON {
        ["openapi": "3.1.0", "info": ["title": "CashoutSandbox", "version": "0.1.0"],
         "servers": [["url": .string(serverURL)]], "paths": [:]]
    }
}
