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
        // Layer 0: platform shim and leaf utilities.
        .target(name: "CEpoll"),
        .target(name: "CSHA256"),
        .target(name: "SandboxCrypto", dependencies: ["CSHA256"]),
        .target(name: "SandboxJSON"),
        // General utilities: threads (`OSThread`, `BackgroundWorker`), `Lazy`, `Ring`, `OutOfLine` and `InternTable`.
        .target(name: "SandboxSupport", dependencies: ["CEpoll"]),
        // HPACK (RFC 7541): HTTP/2 header compression, the encoder, the decoder and their tables.
        .target(name: "SandboxHPACK"),
        // Protocol Buffers: the wire format, schema-driven messages, proto3 JSON and descriptors.
        .target(name: "SandboxProtobuf", dependencies: ["SandboxJSON", "SandboxSupport"]),
        // Layer 1: HTTP/1.1 and HTTP/2 (h2c) server and HTTP/1.1 client on epoll.
        .target(name: "SandboxHTTP", dependencies: ["CEpoll", "SandboxHPACK", "SandboxJSON", "SandboxSupport"]),
        // Layer 1: gRPC over SandboxHTTP's HTTP/2: unary calls, health, server reflection, metrics.
        .target(name: "SandboxGRPC", dependencies: ["SandboxHTTP", "SandboxJSON", "SandboxProtobuf"], exclude: ["Protos"]),
        // Layer 2: the dialect-neutral bank core: the model, its records and their replay (its binary form is SandboxPersistence's).
        .target(name: "SandboxBank", dependencies: ["SandboxSupport"]),
        // Layer 2: scenario files: the model, the loader, and the rules that become bank timelines.
        .target(name: "SandboxScenario", dependencies: ["SandboxBank", "SandboxHTTP", "SandboxJSON", "SandboxSupport"]),
        // Layer 2: persistence, all of it: the journal file (CRC-32 framed records, group commit, recovery,
        // compaction), the binary coding, the bank's binary form (records and snapshots), the sandbox's
        // state on disk (`--state-dir`'s journal), its snapshots and the state directory.
        .target(name: "SandboxPersistence", dependencies: ["SandboxBank", "SandboxHTTP", "SandboxSupport"]),
        // Layer 2: the contract: each API's operations as values (id, route or gRPC method, role), what
        // an operation reads of a request (RequestFacts), and the admin API's routes, messages and token.
        .target(name: "SandboxContract", dependencies: ["SandboxBank", "SandboxHTTP", "SandboxJSON", "SandboxSupport"]),
        // Layer 2: the integration report's engine: what an app gets wrong, from the logged
        // requests and the deliveries, by checks the dialects pick (it names no API).
        .target(name: "SandboxReport", dependencies: ["SandboxBank", "SandboxContract", "SandboxHTTP", "SandboxJSON", "SandboxSupport"]),
        // Layer 2: what integrators load into their own tools: the dashboard page, and the OpenAPI
        // document and Postman collection, each assembled from what the dialects give (gRPC services
        // documented as Connect's JSON, their message schemas made from their declarations).
        // The dashboard's HTML, CSS and JavaScript are files (Resources/), compiled in; each API's part is in its own folder.
        .target(name: "SandboxDashboard", dependencies: ["SandboxContract", "SandboxHTTP", "SandboxSupport"],
                resources: ["dashboard.html", "dashboard.css", "core.js", "list.js", "hmac.js", "pages.js", "start.js", "form-footer.html",
                            "favicon.svg", "requests.html", "requests.js", "webhooks.html", "webhooks.js", "report.html", "report.js", "report.css",
                            "timeline.html", "timeline.css", "timeline.js"]
                    .map { .embedInCode("Resources/\($0)") }),
        .target(name: "SandboxAPIDocs", dependencies: ["SandboxBank", "SandboxContract", "SandboxDashboard", "SandboxGRPC", "SandboxHTTP",
                                                       "SandboxJSON", "SandboxProtobuf", "SandboxScenario", "SandboxSupport"]),
        // Layer 3: the seam every payout API plugs into, and the APIs, each in Sources/Dialects/NAME.
        // The wire and the accounts; what an API adds to scenario files, the documents, the dashboard
        // and the report, it adds by conforming to those modules' own protocols (ScenarioDialect...).
        .target(name: "SandboxDialect", dependencies: ["SandboxAPIDocs", "SandboxBank", "SandboxContract", "SandboxDashboard", "SandboxGRPC",
                                                       "SandboxHTTP", "SandboxJSON", "SandboxProtobuf", "SandboxReport", "SandboxScenario"],
                path: "Sources/Dialects/Dialect"),
        // D24 Cashouts v3: its country rules (pure data and check digits) and the adapter that
        // decodes, authenticates, validates, calls the bank and answers.
        .target(name: "SandboxD24Rules", path: "Sources/Dialects/D24/Rules"),
        .target(name: "SandboxD24", dependencies: ["SandboxReport", "SandboxAPIDocs", "SandboxContract", "SandboxDashboard", "SandboxDialect",
                                                   "SandboxD24Rules", "SandboxBank", "SandboxHTTP", "SandboxJSON", "SandboxCrypto", "SandboxScenario",
                                                   "SandboxSupport"],
                path: "Sources/Dialects/D24/API",
                resources: [.embedInCode("Resources/default.json"), .embedInCode("Dashboard/form.html"), .embedInCode("Dashboard/script.js")]),
        // Mannco.store's user cashouts: login for a JWT, cashouts with fees, cooldown and one pending,
        // linked methods, history, and the users' email outbox.
        .target(name: "SandboxMannco", dependencies: ["SandboxReport", "SandboxAPIDocs", "SandboxContract", "SandboxBank", "SandboxCrypto",
                                                      "SandboxDashboard", "SandboxDialect", "SandboxHTTP", "SandboxJSON", "SandboxScenario"],
                path: "Sources/Dialects/Mannco",
                resources: ["form.html", "users.html", "emails.html", "cashout-card.html", "style.css", "script.js"]
                    .map { .embedInCode("Dashboard/\($0)") }),
        // Hyperswitch Prism's gRPC PayoutService: its messages, enums and service read from
        // Protos/*.proto, the files clients generate stubs from, compiled in.
        .target(name: "SandboxPrism", dependencies: ["SandboxReport", "SandboxAPIDocs", "SandboxContract", "SandboxBank", "SandboxCrypto",
                                                     "SandboxDashboard", "SandboxDialect", "SandboxGRPC", "SandboxHTTP", "SandboxJSON",
                                                     "SandboxProtobuf", "SandboxScenario"], path: "Sources/Dialects/Prism",
                resources: ["services", "payouts", "payment", "payment_methods"].map { .embedInCode("Protos/\($0).proto") }
                    + ["form.html", "merchants.html", "style.css", "script.js"].map { .embedInCode("Dashboard/\($0)") }),
        // Layer 4: the webhooks: the sender, its delivery pool and counts, and the built-in sinks.
        .target(name: "SandboxWebhooks", dependencies: ["SandboxBank", "SandboxDialect", "SandboxHTTP", "SandboxJSON", "SandboxScenario",
                                                        "SandboxSupport"]),
        // Layer 4: what the sandbox observes: the event log, the request log and its recorder, the app's activity.
        .target(name: "SandboxObservability", dependencies: ["SandboxBank", "SandboxContract", "SandboxGRPC", "SandboxHTTP", "SandboxJSON",
                                                             "SandboxProtobuf", "SandboxReport", "SandboxScenario", "SandboxSupport"]),
        // Layer 4: the middleware: the Host and cross-site guards, the admin token, a scenario's faults.
        .target(name: "SandboxMiddleware", dependencies: ["SandboxAPIDocs", "SandboxBank", "SandboxContract", "SandboxCrypto", "SandboxDialect",
                                                          "SandboxGRPC", "SandboxHTTP", "SandboxJSON", "SandboxObservability", "SandboxScenario"]),
        // Layer 5: the admin API (`/sandbox/...`), and what it answers from: the integration reports made and kept
        // (ReportCache), the metrics, a suite's progress.
        .target(name: "SandboxAdmin", dependencies: ["SandboxAPIDocs", "SandboxBank", "SandboxContract", "SandboxDialect", "SandboxGRPC",
                                                     "SandboxHTTP", "SandboxJSON", "SandboxMiddleware", "SandboxObservability", "SandboxPersistence",
                                                     "SandboxReport", "SandboxScenario", "SandboxSupport", "SandboxWebhooks"]),
        // Layer 6: the facade users embed, and the command line on top of it.
        .target(name: "CashoutSandbox", dependencies: ["SandboxHTTP", "SandboxGRPC", "SandboxProtobuf", "SandboxBank", "SandboxDialect",
                                                       "SandboxD24", "SandboxMannco", "SandboxPrism", "SandboxScenario", "SandboxJSON",
                                                       "SandboxPersistence", "SandboxDashboard", "SandboxAPIDocs", "SandboxContract",
                                                       "SandboxReport", "SandboxSupport", "SandboxWebhooks", "SandboxMiddleware",
                                                       "SandboxObservability", "SandboxAdmin"]),
        // Layer 7: scenario files with steps run as tests, each against its own in-process sandbox (`test`).
        .target(name: "SandboxRunner", dependencies: ["CashoutSandbox", "SandboxBank", "SandboxDialect", "SandboxHTTP",
                                                      "SandboxJSON", "SandboxReport", "SandboxScenario", "SandboxSupport", "SandboxObservability"]),
        // A test dependency for Swift teams: typed cashouts, webhooks, ledger, clock and signing.
        .target(name: "CashoutSandboxTesting", dependencies: ["CashoutSandbox", "SandboxBank", "SandboxD24", "SandboxDialect", "SandboxHTTP",
                                                              "SandboxJSON", "SandboxMannco", "SandboxPrism", "SandboxScenario"]),
        .target(name: "SandboxCLI", dependencies: ["CashoutSandbox", "SandboxRunner", "SandboxScenario", "SandboxAPIDocs", "SandboxPersistence",
                                                   "SandboxBank", "SandboxCrypto", "SandboxD24", "SandboxHTTP", "SandboxJSON",
                                                   "SandboxPrism", "SandboxSupport", "SandboxMiddleware", "SandboxDashboard",
                                                   "SandboxObservability"]),
        .executableTarget(name: "cashout-sandbox", dependencies: ["SandboxCLI"]),

        // One home for what several test targets need (D24's signatures computed as a client does, and how a test waits).
        .target(name: "TestHelpers", dependencies: ["SandboxBank", "SandboxCrypto", "SandboxHTTP"], path: "Tests/TestHelpers"),
        // What the suites that start a whole sandbox share (TestHelpers stays below the facade).
        .target(name: "SandboxTestSupport", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxBank", "SandboxHTTP", "SandboxReport",
                                                           "SandboxSupport"],
                path: "Tests/SandboxTestSupport"),
        .testTarget(name: "SandboxCryptoTests", dependencies: ["SandboxCrypto"]),
        .testTarget(name: "SandboxJSONTests", dependencies: ["SandboxJSON"]),
        .testTarget(name: "SandboxSupportTests", dependencies: ["SandboxSupport"]),
        .testTarget(name: "SandboxHPACKTests", dependencies: ["SandboxHPACK"]),
        .testTarget(name: "SandboxHTTPTests", dependencies: ["TestHelpers", "SandboxHTTP", "SandboxHPACK", "SandboxJSON", "SandboxSupport"]),
        .testTarget(name: "SandboxProtobufTests", dependencies: ["SandboxProtobuf", "SandboxJSON"]),
        .testTarget(name: "SandboxGRPCTests", dependencies: ["TestHelpers", "SandboxGRPC", "SandboxHTTP", "SandboxJSON", "SandboxProtobuf"]),
        .testTarget(name: "SandboxD24RulesTests", dependencies: ["SandboxD24Rules"]),
        .testTarget(name: "SandboxBankTests", dependencies: ["TestHelpers", "SandboxBank"]),
        .testTarget(name: "SandboxWebhooksTests", dependencies: ["SandboxWebhooks", "SandboxBank", "SandboxHTTP"]),
        .testTarget(name: "SandboxMiddlewareTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxMiddleware", "SandboxBank",
                                                                "SandboxCrypto", "SandboxHTTP", "SandboxJSON"]),
        .testTarget(name: "SandboxAdminTests", dependencies: ["TestHelpers", "SandboxTestSupport", "CashoutSandbox", "SandboxAdmin",
                                                           "SandboxAPIDocs", "SandboxBank", "SandboxContract",
                                                           "SandboxCrypto", "SandboxGRPC", "SandboxHTTP", "SandboxJSON", "SandboxMiddleware",
                                                           "SandboxObservability", "SandboxPersistence", "SandboxRunner", "SandboxScenario",
                                                           "SandboxWebhooks"]),
        .testTarget(name: "SandboxScenarioTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxScenario", "SandboxBank", "SandboxD24",
                                                              "SandboxD24Rules", "SandboxHTTP", "SandboxJSON", "SandboxRunner", "SandboxSupport"]),
        .testTarget(name: "SandboxDialectTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxAPIDocs", "SandboxBank",
                                                             "SandboxContract", "SandboxDashboard", "SandboxDialect", "SandboxGRPC", "SandboxHTTP",
                                                             "SandboxJSON", "SandboxProtobuf", "SandboxReport", "SandboxScenario"]),
        .testTarget(name: "SandboxCLITests", dependencies: ["CashoutSandbox", "SandboxCLI", "SandboxHTTP", "SandboxScenario"]),
        .testTarget(name: "SandboxObservabilityTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxObservability", "SandboxBank",
                                                                   "SandboxCrypto", "SandboxGRPC", "SandboxHTTP", "SandboxJSON", "SandboxScenario"]),
        .testTarget(name: "CashoutSandboxTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxD24", "SandboxMannco", "SandboxHTTP",
                                                                "SandboxScenario", "SandboxDialect", "SandboxBank", "SandboxJSON", "SandboxCrypto"]),
        .testTarget(name: "SandboxRunnerTests", dependencies: ["TestHelpers", "SandboxTestSupport", "CashoutSandbox", "SandboxRunner", "SandboxBank",
                                                            "SandboxContract", "SandboxDialect", "SandboxHTTP", "SandboxJSON", "SandboxObservability",
                                                            "SandboxScenario", "SandboxSupport"]),
        .testTarget(name: "SandboxReportTests", dependencies: ["TestHelpers", "SandboxTestSupport", "CashoutSandbox", "SandboxRunner",
                                                            "SandboxAPIDocs", "SandboxBank", "SandboxContract", "SandboxHTTP", "SandboxJSON",
                                                            "SandboxScenario"]),
        .testTarget(name: "SandboxAPIDocsTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxBank", "SandboxD24Rules", "SandboxDialect",
                                                             "SandboxHTTP", "SandboxJSON", "SandboxMannco", "SandboxProtobuf", "SandboxScenario"]),
        .testTarget(name: "SandboxDashboardTests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxDashboard", "SandboxHTTP", "SandboxJSON"]),
        .testTarget(name: "SandboxPersistenceTests", dependencies: ["TestHelpers", "SandboxTestSupport", "CashoutSandbox", "SandboxBank",
                                                                 "SandboxCrypto", "SandboxHTTP", "SandboxJSON", "SandboxPersistence"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "D24APITests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxD24", "SandboxD24Rules", "SandboxHTTP",
                                                        "SandboxJSON", "SandboxBank"]),
        .testTarget(name: "ManncoAPITests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxMannco", "SandboxRunner", "SandboxHTTP",
                                                           "SandboxJSON", "SandboxBank", "SandboxCrypto", "SandboxScenario"]),
        .testTarget(name: "PrismAPITests", dependencies: ["TestHelpers", "CashoutSandbox", "SandboxBank", "SandboxCrypto", "SandboxGRPC",
                                                          "SandboxHTTP", "SandboxPrism", "SandboxProtobuf", "SandboxJSON", "SandboxReport",
                                                          "SandboxRunner", "SandboxScenario", "SandboxPersistence", "SandboxContract"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "CashoutSandboxTestingTests", dependencies: ["CashoutSandboxTesting"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestHelpers", "cashout-sandbox", "SandboxHTTP", "SandboxBank", "SandboxPersistence",
                                                          "SandboxJSON"], exclude: ["Fixtures"]),
    ]
)
