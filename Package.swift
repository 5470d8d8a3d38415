// swift-tools-version:6.0
// CashoutSandbox: a local stand-in for payout providers' cashout APIs. Toolchain only: no dependencies.
import PackageDescription

let package = Package(
    name: "CashoutSandbox",
    products: [
        .library(name: "CashoutSandbox", targets: ["CashoutSandbox"]),
        .library(name: "CashoutSandboxTesting", targets: ["CashoutSandboxTesting"]),
        .executable(name: "cashout-sandbox", targets: ["cashout-sandbox"]),
    ],
    targets: [
        // The C the platform's Swift modules do not expose: epoll, eventfd and socket details, and the
        // SHA-256 compression function with the x86 SHA extensions.
        .target(name: "CSystem"),
        // Leaf utilities every layer uses: threads (`OSThread`, `BackgroundWorker`), `Lazy`, `Ring`,
        // `InternTable`, JSON (JSON/) and SHA-256, HMAC and base64url (Crypto/).
        .target(name: "SandboxSupport", dependencies: ["CSystem"]),
        // The wire: HTTP/1.1 and HTTP/2 (h2c) server and HTTP/1.1 client on epoll (HTTP/), HPACK (HPACK/),
        // Protocol Buffers' wire format, messages and proto3 JSON (Protobuf/), gRPC's unary calls, health
        // and reflection (GRPC/).
        .target(name: "SandboxWire", dependencies: ["CSystem", "SandboxSupport"], exclude: ["GRPC/Protos"]),
        // The dialect-neutral bank: accounts, payouts and their lifecycle, the scheduler, the virtual clock,
        // the records and their replay. It imports no wire and names no API.
        .target(name: "SandboxBank", dependencies: ["SandboxSupport"]),
        // Persistence, all of it: the journal file (CRC-32 framed records, group commit, recovery,
        // compaction), the binary coding, the bank's binary form, the sandbox's state directory.
        .target(name: "SandboxPersistence", dependencies: ["SandboxBank", "SandboxSupport", "SandboxWire"]),
        // The contract every API plugs into: the operations as values (Operations/), scenario files and
        // their vocabulary (Scenario/), the integration report's engine (Report/), the dashboard page
        // (Dashboard/), the OpenAPI document and Postman collection (Documents/), and the seam itself,
        // `Dialect` (Dialect/). An API adds to each by conforming to its protocols.
        .target(name: "SandboxContract", dependencies: ["SandboxBank", "SandboxSupport", "SandboxWire"],
                resources: ["dashboard.html", "dashboard.css", "core.js", "list.js", "hmac.js", "pages.js", "start.js", "form-footer.html",
                            "favicon.svg", "requests.html", "requests.js", "webhooks.html", "webhooks.js", "report.html", "report.js", "report.css",
                            "timeline.html", "timeline.css", "timeline.js"]
                    .map { .embedInCode("Dashboard/Resources/\($0)") }),
        // D24 Cashouts v3: its country rules, pure data and check digits (Rules/), and the adapter that
        // decodes, authenticates, validates, calls the bank and answers (API/).
        .target(name: "SandboxD24", dependencies: ["SandboxBank", "SandboxContract", "SandboxSupport", "SandboxWire"],
                path: "Sources/Dialects/D24",
                resources: ["API/Resources/default.json", "API/Dashboard/form.html", "API/Dashboard/script.js"].map { .embedInCode($0) }),
        // Mannco.store's user cashouts: login for a JWT, cashouts with fees, cooldown and one pending,
        // linked methods, history, and the users' email outbox.
        .target(name: "SandboxMannco", dependencies: ["SandboxBank", "SandboxContract", "SandboxSupport", "SandboxWire"],
                path: "Sources/Dialects/Mannco",
                resources: ["form.html", "users.html", "emails.html", "cashout-card.html", "style.css", "script.js"]
                    .map { .embedInCode("Dashboard/\($0)") }),
        // Hyperswitch Prism's gRPC PayoutService: its messages, enums and service read from
        // Protos/*.proto, the files clients generate stubs from, compiled in.
        .target(name: "SandboxPrism", dependencies: ["SandboxBank", "SandboxContract", "SandboxSupport", "SandboxWire"],
                path: "Sources/Dialects/Prism",
                resources: ["services", "payouts", "payment", "payment_methods"].map { .embedInCode("Protos/\($0).proto") }
                    + ["form.html", "merchants.html", "style.css", "script.js"].map { .embedInCode("Dashboard/\($0)") }),
        // The facade users embed, and the server it runs: the webhooks (Webhooks/), what the sandbox
        // observes (Observability/), the middleware (Middleware/) and the admin API (Admin/).
        .target(name: "CashoutSandbox", dependencies: ["SandboxBank", "SandboxContract", "SandboxD24", "SandboxMannco", "SandboxPersistence",
                                                       "SandboxPrism", "SandboxSupport", "SandboxWire"]),
        // Scenario files with steps run as tests, each against its own in-process sandbox (`test`, `explore`).
        .target(name: "SandboxRunner", dependencies: ["CashoutSandbox", "SandboxBank", "SandboxContract", "SandboxSupport", "SandboxWire"]),
        // A test dependency for Swift teams: typed cashouts, webhooks, ledger, clock and signing.
        .target(name: "CashoutSandboxTesting", dependencies: ["CashoutSandbox", "SandboxBank", "SandboxContract", "SandboxD24",
                                                              "SandboxMannco", "SandboxPrism", "SandboxSupport", "SandboxWire"]),
        // The command line: serve, test, explore, validate, sign, documents and completions.
        .executableTarget(name: "cashout-sandbox", dependencies: ["CashoutSandbox", "SandboxBank", "SandboxContract", "SandboxD24",
                                                                  "SandboxPersistence", "SandboxPrism", "SandboxRunner", "SandboxSupport",
                                                                  "SandboxWire"]),

        // What the test targets share: D24's signatures computed as a client does, how a test waits, and
        // the suites that start a whole sandbox.
        .target(name: "TestHelpers", dependencies: ["CashoutSandbox", "SandboxBank", "SandboxContract", "SandboxSupport", "SandboxWire"],
                path: "Tests/TestHelpers"),

        .testTarget(name: "SandboxCryptoTests", dependencies: ["SandboxSupport"]),
        .testTarget(name: "SandboxJSONTests", dependencies: ["SandboxSupport"]),
        .testTarget(name: "SandboxSupportTests", dependencies: ["SandboxSupport"]),
        .testTarget(name: "SandboxHPACKTests", dependencies: ["SandboxWire"]),
        .testTarget(name: "SandboxHTTPTests", dependencies: ["TestHelpers", "SandboxWire", "SandboxSupport"]),
        .testTarget(name: "SandboxProtobufTests", dependencies: ["SandboxWire", "SandboxSupport"]),
        .testTarget(name: "SandboxGRPCTests", dependencies: ["TestHelpers", "SandboxWire", "SandboxSupport"]),
        .testTarget(name: "SandboxD24RulesTests", dependencies: ["SandboxD24"]),
        .testTarget(name: "SandboxBankTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxBank"]),
        .testTarget(name: "SandboxWebhooksTests", dependencies: ["CashoutSandbox", "SandboxBank", "SandboxWire"]),
        .testTarget(name: "SandboxMiddlewareTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxBank", "SandboxSupport",
                                                                   "SandboxWire"]),
        .testTarget(name: "SandboxAdminTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxContract", "SandboxBank",
                                                              "SandboxSupport", "SandboxWire", "SandboxPersistence", "SandboxRunner"]),
        .testTarget(name: "SandboxScenarioTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxContract", "SandboxBank",
                                                                 "SandboxD24", "SandboxWire", "SandboxSupport", "SandboxRunner"]),
        .testTarget(name: "SandboxDialectTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxContract", "SandboxBank",
                                                                "SandboxWire", "SandboxSupport"]),
        .testTarget(name: "SandboxCLITests", dependencies: ["CashoutSandbox", "cashout-sandbox", "SandboxWire", "SandboxContract"]),
        .testTarget(name: "SandboxObservabilityTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxBank", "SandboxSupport",
                                                                      "SandboxWire", "SandboxContract"]),
        .testTarget(name: "CashoutSandboxTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxD24", "SandboxMannco",
                                                                "SandboxWire", "SandboxContract", "SandboxBank", "SandboxSupport"]),
        .testTarget(name: "SandboxRunnerTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxRunner", "SandboxBank",
                                                               "SandboxContract", "SandboxWire", "SandboxSupport"]),
        .testTarget(name: "SandboxReportTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxRunner", "SandboxContract",
                                                               "SandboxBank", "SandboxWire", "SandboxSupport"]),
        .testTarget(name: "SandboxAPIDocsTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxBank", "SandboxD24",
                                                                "SandboxContract", "SandboxWire", "SandboxSupport", "SandboxMannco"]),
        .testTarget(name: "SandboxDashboardTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxContract", "SandboxWire",
                                                                  "SandboxSupport"]),
        .testTarget(name: "SandboxPersistenceTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxBank", "SandboxSupport",
                                                                    "SandboxWire", "SandboxPersistence"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "D24APITests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxD24", "SandboxWire", "SandboxSupport",
                                                        "SandboxBank"]),
        .testTarget(name: "ManncoAPITests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxMannco", "SandboxRunner", "SandboxWire",
                                                           "SandboxSupport", "SandboxBank", "SandboxContract"]),
        .testTarget(name: "PrismAPITests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxBank", "SandboxSupport", "SandboxWire",
                                                          "SandboxPrism", "SandboxContract", "SandboxRunner", "SandboxPersistence"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "CashoutSandboxTestingTests", dependencies: ["CashoutSandboxTesting"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestHelpers", "cashout-sandbox", "SandboxWire", "SandboxBank", "SandboxContract",
                                                          "SandboxPersistence", "SandboxSupport"], exclude: ["Fixtures"]),
    ]
)

// The compiler holds the import rules (the Architecture guide): `any` spelled out, imports internal unless a
// declaration's signature needs more, and a member used only where its module is imported.
for target in package.targets where target.name != "CSystem" {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
