/// The sandbox's version: the one declaration `Sandbox.version` (`--version`, `/sandbox/health`, the
/// metrics' `cashout_sandbox_build_info`) and the OpenAPI document's `info.version` both read.
package enum SandboxVersion {
    package static let current = "0.2.0"
}
