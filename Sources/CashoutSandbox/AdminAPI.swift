import SandboxBank
import SandboxHTTP
import SandboxJSON

/// The sandbox's own endpoints under `/sandbox/` (DESIGN.md, "Admin API").
struct AdminAPI: Sendable {
    let clock: VirtualClock

    func register(in router: inout Router) {
        router.add("GET /sandbox/health") { _ in health() }
    }

    /// `{"clock":{"mode":"real","now":"…"},"status":"ok","version":"0.1.0"}`
    private func health() -> HTTPResponse {
        .json([
            "status": "ok",
            "version": .string(Sandbox.version),
            "clock": ["mode": .string(clock.mode.rawValue), "now": .string(clock.now.iso8601)],
        ])
    }
}
