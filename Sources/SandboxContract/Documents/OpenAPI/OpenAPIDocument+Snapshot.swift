import SandboxSupport

// GET and PUT /sandbox/snapshot as Sources/CashoutSandbox/Admin/AdminAPI+Snapshot.swift serves them.

extension OpenAPIDocument {
    static func snapshotEndpoints<Admin: AdminServing>() -> [Endpoint<Admin>] {
        [
            Endpoint<Admin>(AdminRoute.getSnapshot, OpenAPI.operation(
                tag: "Sandbox", summary: "Save the whole state",
                description: """
                    Merchants and balances, cashouts with their history and scheduled bank steps, the ledger, limits used, \
                    webhooks with every attempt and retries to come, the clock, and the scenarios loaded through \
                    POST /sandbox/scenario. PUT it into this or another sandbox to get the same world back.
                    """,
                responses: ["200": ["description": "The snapshot file", "content": .object([snapshotMediaType: snapshotFile])]])) {
                $0.getSnapshot($1)
            },
            snapshotUploadEndpoint(),
        ]
    }

    /// `PUT /sandbox/snapshot`, whose body the server spools to a file.
    static func snapshotUploadEndpoint<Admin: AdminServing>() -> Endpoint<Admin> {
        Endpoint<Admin>(AdminRoute.putSnapshot, OpenAPI.operation(
            tag: "Sandbox", summary: "Restore a saved state",
            description: """
                Replaces the whole state with the snapshot's, the clock included (back, too); the scenarios the \
                sandbox was started with stay, the snapshot's are loaded over them; the sinks are emptied. Up to \
                512 MiB, whatever --max-body says. The body goes to a temporary file as it arrives ($TMPDIR, else \
                /tmp), and is restored from it a part at a time: a broken snapshot changes nothing.
                """,
            body: ["required": true, "content": .object([snapshotMediaType: snapshotFile])],
            responses: [
                "200": OpenAPI.json("Restored", Schema.ref("SnapshotRestored")),
                "400": OpenAPI.error(400, "the body is not a snapshot (a snapshot starts with CSJ1; get one with GET /sandbox/snapshot)",
                                     "a record whose checksum does not match at byte 8",
                                     "the snapshot is cut short: its last record is missing"),
                "500": OpenAPI.error(500, "the request body could not be stored: /tmp: No space left on device"),
            ])) { $0.putSnapshot($1) }
    }

    /// A snapshot file's media type and schema.
    private static let (snapshotMediaType, snapshotFile) = ("application/vnd.cashout-sandbox.snapshot", [
        "schema": Schema.string("A snapshot file (a CashoutSandbox journal: CSJ1, then checksummed records)"), "example": "CSJ1…",
    ] as JSON)
}
